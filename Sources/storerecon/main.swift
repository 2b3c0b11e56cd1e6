import StoreReconCLI

#if canImport(Glibc)
  import Glibc
#endif

exit(StoreReconCLI.main(Array(CommandLine.arguments.dropFirst())))

// The `reports` fuzz target (docs/fuzzing.md): Fuzz/Driver.swift runs it.
let fuzzTarget = "reports"

import Testing
import StoreReconTestSupport

/// What a mistyped command line gets: exit 64 with a suggestion; the short flags.
struct CommandLinePolishTests {
  @Test func helpForAnUnknownTopicIsAUsageError() throws {
    let out = try Binary.run(["help", "bogus"])
    #expect(out.status == 64, "\(out.stderr)")
    #expect(out.stderr.contains("no help for 'bogus'"))
    let near = try Binary.run(["help", "deme"])
    #expect(near.status == 64 && near.stderr.contains("did you mean 'demo'?"), "\(near.stderr)")
    #expect(try Binary.run(["help", "run"]).status == 0)
  }

  @Test func mistypedCommandsAndOptionsGetASuggestion() throws {
    let command = try Binary.run(["mial"])
    #expect(command.status == 64 && command.stderr.contains("unknown command 'mial'"), "\(command.stderr)")
    let option = try Binary.run(["run", "--confg", "x.json"])
    #expect(option.status == 64, "\(option.stderr)")
    #expect(option.stderr.contains("unknown option '--confg' — did you mean '--config'?"))
  }

  @Test func swappedLettersGetASuggestion() throws {
    let command = try Binary.run(["rnu"])
    #expect(command.status == 64, "\(command.stderr)")
    #expect(command.stderr.contains("unknown command 'rnu' — did you mean 'run'?"), "\(command.stderr)")
    let option = try Binary.run(["run", "--no-hsitory"])
    #expect(option.status == 64, "\(option.stderr)")
    #expect(
      option.stderr.contains("unknown option '--no-hsitory' — did you mean '--no-history'?"),
      "\(option.stderr)")
    let mail = try Binary.run(["mial"])
    #expect(mail.stderr.contains("did you mean 'mail'?"), "\(mail.stderr)")
  }

  @Test func everyCommandsHelpListsItsShortFlags() throws {
    for command in ["run", "demo", "mail", "fetch"] {
      let help = try Binary.run([command, "--help"])
      #expect(help.status == 0)
      #expect(help.stdout.contains("-q, --quiet"), "\(command)")
      #expect(help.stdout.contains("-d, --date"), "\(command)")
    }
    for command in ["run", "mail", "fetch"] {
      #expect(try Binary.run([command, "--help"]).stdout.contains("-c, --config"), "\(command)")
    }
    for command in ["run", "demo", "mail"] {
      #expect(try Binary.run([command, "--help"]).stdout.contains("-o, --out"), "\(command)")
    }
  }

  @Test func shortFlags() throws {
    let version = try Binary.run(["-V"])
    #expect(version.status == 0 && version.stdout.hasPrefix("storerecon "))
    // -c is --config: a missing file is the config's error (78 or 66), not an unknown option (64).
    let run = try Binary.run(["run", "-c", "/nonexistent/storerecon.json", "-d", "2026-11-29", "-q"])
    #expect(run.status != 64, "\(run.stderr)")
    #expect(!run.stderr.contains("unknown option"))
  }
}

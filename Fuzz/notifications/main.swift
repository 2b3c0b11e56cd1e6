// The `notifications` fuzz target (docs/fuzzing.md): Fuzz/Driver.swift runs it.
let fuzzTarget = "notifications"

// The `money` target (docs/fuzzing.md): Fuzz/Driver.swift runs it.
let fuzzTarget = "money"

// The `voided` fuzz target (docs/fuzzing.md): Fuzz/Driver.swift runs it.
let fuzzTarget = "voided"

// swift-version: 6
// expect: clean
// Diagnostics.detectsCycles's sample in its doc comment, verbatim: it needs nothing but Forge.
import Forge

// The sample of Sources/Forge/Diagnostics/Diagnostics.swift, from here to the end.
Container.Diagnostics.detectsCycles = true   // e.g. in a release-mode test run

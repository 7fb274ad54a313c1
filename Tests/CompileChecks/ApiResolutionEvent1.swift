// swift-version: 6
// expect: clean
// Diagnostics.trace's sample in its doc comment: the logger it writes to first, then the sample verbatim.
import Forge

nonisolated struct Logger: Sendable {
    func debug(_ message: String) {}
}
let log = Logger()

// The sample of Sources/Forge/Diagnostics/ResolutionEvent.swift, from here to the end.
Container.Diagnostics.trace = Container.Diagnostics.printTree   // an indented tree on standard error
Container.Diagnostics.trace = { event in log.debug("\(event)") }

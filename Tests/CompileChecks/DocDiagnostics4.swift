// swift-version: 6
// expect: clean
// Diagnostics.md's sample of a trace hook of your own: the logger it uses first, then the sample verbatim.
import Forge

nonisolated struct Logger: Sendable {
    func debug(_ message: String) {}
}
let log = Logger()

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
Container.Diagnostics.trace = { event in log.debug("\(event)") }

// swift-version: 6
// expect: clean
// GettingStarted.md's sample "Pass a parameter": the type it uses first, then the sample verbatim.
import Forge

nonisolated struct Numbered { init(_ n: Int) {} }

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
// The sample of Sources/Forge/API/ParameterFactory.swift, from here to the end.
extension Container {
    static let numbered = ParameterFactory<Int, Numbered> { n in Numbered(n) }
}
let seven = Container.numbered(7)

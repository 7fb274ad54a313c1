// swift-version: 6
// expect: clean
// ParameterFactory's sample in its doc comment: the type it makes first, then the sample verbatim.
import Forge

struct Numbered { init(_ n: Int) {} }

// The sample of Sources/Forge/ParameterFactory.swift, from here to the end.
extension Container {
    static let numbered = ParameterFactory<Int, Numbered> { n in Numbered(n) }
}
let seven = Container.numbered(7)

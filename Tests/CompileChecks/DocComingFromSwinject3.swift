// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "Arguments": the types first, then that part verbatim.
import Forge

nonisolated protocol AnimalType {}
nonisolated struct Horse: AnimalType { let name: String; let running: Bool }

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
extension Container {
    static let horse = ParameterFactory<(name: String, running: Bool), AnimalType> {
        Horse(name: $0.name, running: $0.running)
    }
}
let horse = Container.horse((name: "Lucky", running: true))

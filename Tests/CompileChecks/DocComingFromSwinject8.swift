// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "One instance for several types": the types first, then that part verbatim.
import Forge

nonisolated protocol AnimalType {}
nonisolated protocol Pet {}
nonisolated final class Dog: AnimalType, Pet { init(name: String) {} }

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
extension Container {
    static let hachi = Factory(scope: .singleton) { Dog(name: "Hachi") }
    static let animal = Factory<AnimalType> { hachi() }
    static let pet = Factory<Pet> { hachi() }
}

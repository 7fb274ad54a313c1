// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "Named registrations": the types first, then that part verbatim.
import Forge

nonisolated protocol AnimalType {}
nonisolated struct Cat: AnimalType { let name: String }
nonisolated struct Dog: AnimalType { let name: String }

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
extension Container {
    static let cat = Factory<AnimalType> { Cat(name: "Mimi") }
    static let dog = Factory<AnimalType> { Dog(name: "Hachi") }
}
let cat = Container.cat()

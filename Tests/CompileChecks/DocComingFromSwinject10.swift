// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "Autoregistration": the types and the animal factory first, then that part
// verbatim.
import Forge

nonisolated protocol AnimalType {}
nonisolated struct Cat: AnimalType {}
nonisolated protocol PersonType {}
nonisolated final class PetOwner: PersonType {
    init(pet: AnimalType) {}
    init(name: String, pet: AnimalType) {}
}
extension Container {
    static let animal = Factory<AnimalType> { Cat() }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
extension Container {
    static let owner = Factory<PersonType> { PetOwner(pet: animal()) }
    static let namedOwner = ParameterFactory<String, PersonType> { PetOwner(name: $0, pet: animal()) }
}

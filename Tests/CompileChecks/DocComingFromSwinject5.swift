// swift-version: 6
// expect: clean
// ComingFromSwinject.md's sample "Overriding in tests": the imports, types and factories first, then the sample
// verbatim.
import Forge
import Testing

nonisolated protocol AnimalType {}
nonisolated struct Cat: AnimalType { let name: String }
nonisolated struct Dog: AnimalType { let name: String }
nonisolated struct MockAnimal: AnimalType {}
nonisolated protocol PersonType {}
nonisolated final class PetOwner: PersonType {
    let pet: AnimalType
    init(name: String, pet: AnimalType) { self.pet = pet }
}
extension Container {
    static let animal = Factory<AnimalType> { Cat(name: "Mimi") }
    static let person = Factory<PersonType> { PetOwner(name: "Stephen", pet: animal()) }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
Container.Registrations.isolated {
    Container.animal.register { MockAnimal() }
    let owner = Container.person() as! PetOwner
    #expect(owner.pet is MockAnimal)
}

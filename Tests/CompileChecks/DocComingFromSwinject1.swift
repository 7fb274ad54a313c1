// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge column: the types first, then the sample verbatim.
import Forge

nonisolated protocol AnimalType {}
nonisolated struct Cat: AnimalType { let name: String }
nonisolated struct Dog: AnimalType { let name: String }
nonisolated protocol PersonType {}
nonisolated final class PetOwner: PersonType { init(name: String, pet: AnimalType) {} }

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
        extension Container {
            static let animal = Factory<AnimalType> {
                Cat(name: "Mimi")
            }
            static let person = Factory<PersonType> {
                PetOwner(name: "Stephen", pet: animal())
            }
        }

        let person = Container.person()

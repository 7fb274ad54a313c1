// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "A name chosen at run time": the types and the factory of each name first,
// then that part verbatim.
import Forge

nonisolated protocol AnimalType {}
nonisolated struct Cat: AnimalType { let name: String }
nonisolated struct Dog: AnimalType { let name: String }
extension Container {
    static let cat = Factory<AnimalType> { Cat(name: "Mimi") }
    static let dog = Factory<AnimalType> { Dog(name: "Hachi") }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
enum AnimalName: String {
    case cat, dog
}

extension Container {
    static let namedAnimal = ParameterFactory<AnimalName, AnimalType> { name in
        switch name {
        case .cat: cat()
        case .dog: dog()
        }
    }
}
let animal = Container.namedAnimal(.dog)

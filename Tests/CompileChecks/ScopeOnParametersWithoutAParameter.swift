// swift-version: 6
// expect-diagnostic: value of type 'Factory<Service>' has no member 'scopeOnParameters'
// scopeOnParameters is for the kinds of factory that take a parameter (ParameterFactoryModifying): on a Factory, the
// compiler says it has no such member.
import Forge

final class Service {}
extension Container {
    static let service = Factory(scope: .cached) { Service() }.scopeOnParameters
}

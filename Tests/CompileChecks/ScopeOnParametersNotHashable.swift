// swift-version: 6
// expect-diagnostic: property 'scopeOnParameters' requires that 'ParameterFactory<Query, Service>.Parameter' (aka 'Query') conform to 'Hashable'
// scopeOnParameters keys each instance by its parameter value, which must be Hashable: the compiler says so.
import Forge

final class Service {}
struct Query {}
extension Container {
    static let search = ParameterFactory<Query, Service>(scope: .cached) { _ in Service() }.scopeOnParameters
}

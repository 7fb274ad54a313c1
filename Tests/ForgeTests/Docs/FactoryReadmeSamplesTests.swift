// Factory 1.x's README samples and its users' questions (hmlongco/Factory), in Swift 6 mode. The Swift 5 mode
// copy, with `static var session`, is in Tests/ForgeSwift5Tests. SwiftUI views are left out: SwiftUI and Combine
// do not exist on Linux.
import Forge
import Testing

protocol MyServiceType { func text() -> String }
final class MyService: MyServiceType { func text() -> String { "live" } }
final class MockService: MyServiceType { func text() -> String { "mock" } }
final class MockService2: MyServiceType { func text() -> String { "mock2" } }
final class MockServiceN: MyServiceType {
    let n: Int
    init(_ n: Int) { self.n = n }
    func text() -> String { "mock\(n)" }
}
final class MyConstructedService {
    let service: MyServiceType
    init(service: MyServiceType) { self.service = service }
}
final class SimpleService {}
final class Authentication {}
protocol APIServiceType {}
final class APIService: APIServiceType {}
final class AnotherService {
    let optional: SimpleService?
    init(_ optional: SimpleService?) { self.optional = optional }
}

extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
    static let castService = Factory { MyService() as MyServiceType }
    static let sharedService = Factory<MyServiceType>(scope: .shared) { MyService() }
    static let singletonService = Factory<MyServiceType>(scope: .singleton) { MyService() }
    static let constructedService = Factory { MyConstructedService(service: myService()) }
    static let authentication = Factory(scope: .session) { Authentication() }

    static func setupMocks() {
        myService.register { MockServiceN(4) }
        sharedService.register { MockService2() }
    }
}

extension SharedContainer {
    static let myServiceType = Factory<MyServiceType> { MyService() }
    static let api = Factory<APIServiceType> { APIService() }
}

class OrderContainer: SharedContainer {
    static let optionalService = Factory<SimpleService?> { nil }
    static let constructedService = Factory { MyConstructedService(service: myServiceType()) }
    static let additionalService = Factory(scope: .session) { SimpleService() }
}

class PaymentsContainer: SharedContainer {
    static let anotherService = Factory { AnotherService(OrderContainer.optionalService()) }
}

final class ContentViewModel {
    @Injected(Container.myService) private var myService
    func text() -> String { myService.text() }
}

final class ContentViewModel2 {
    // dependencies
    private let myService = Container.myService()
    private let constructed = Container.constructedService()
    func text() -> String { myService.text() + "/" + constructed.service.text() }
}

// "TestUnit: I can't register": a singleton resolved lazily after a registration in setUp.
class CustomContainer: SharedContainer {
    static let poc = Factory<String>(scope: .singleton) { "Initial project" }
}

final class ViewModelPoc {
    @LazyInjected(CustomContainer.poc) private var poc
    func unitTestMethod() -> String { "Result: \(poc)" }
}

// "What's the best practice to use Factory in a multi-modules project?"
protocol ServiceType { var name: String { get } }
final class Service: ServiceType { let name = "app's service" }
class AFeatureContainer: SharedContainer {
    static let optionalService = Factory<ServiceType?> { nil }
}

// "Question about Dynamic Registration example"
struct User { let name: String }
protocol UserProviding { var user: User? { get } }
struct UserProvider: UserProviding { let user: User? }
extension Container {
    static let userProviding = Factory<UserProviding> { UserProvider(user: nil) }
}
func authenticated(with user: User) {
    Container.userProviding.register { UserProvider(user: user) }
}

/// Runs each sample in its own isolated world, so these tests can run in parallel with the rest.
@Suite struct FactoryReadmeSamplesTests {
    @Test func aFactoryResolvesByCallingIt() {
        Container.Registrations.isolated {
            #expect(Container.myService().text() == "live")
            #expect(Container.castService().text() == "live")
            #expect(ContentViewModel().text() == "live")
        }
    }

    @Test func registeringAMockChangesWhatEveryoneGets() {
        Container.Registrations.isolated {
            Container.myService.register { MockService2() }
            #expect(ContentViewModel().text() == "mock2")
            #expect(ContentViewModel2().text() == "mock2/mock2")
            Container.setupMocks()
            #expect(ContentViewModel().text() == "mock4")
            #expect(Container.sharedService().text() == "mock2")
        }
    }

    @Test func singletonAndSessionScopes() {
        Container.Registrations.isolated {
            #expect(Container.singletonService() as AnyObject === Container.singletonService() as AnyObject)
            let first = Container.authentication()
            #expect(Container.authentication() === first)
            // func logout() { Container.Scope.session.reset() }
            Container.Scope.session.reset()
            #expect(Container.authentication() !== first)
        }
    }

    @Test func customContainersSeeSharedContainerFactories() {
        Container.Registrations.isolated {
            #expect(OrderContainer.optionalService() == nil)
            #expect(OrderContainer.constructedService().service.text() == "live")
            #expect(OrderContainer.additionalService() === OrderContainer.additionalService())
            #expect(PaymentsContainer.anotherService().optional == nil)
            #expect(Container.api() is APIService)
            #expect(OrderContainer.api() is APIService)
        }
    }

    @Test func aRegistrationInSetUpReplacesALazySingleton() {
        Container.Registrations.isolated {
            #expect(ViewModelPoc().unitTestMethod() == "Result: Initial project")
            CustomContainer.poc.register { "Test project" }
            #expect(ViewModelPoc().unitTestMethod() == "Result: Test project")
        }
    }

    @Test func theAppRegistersWhatAFeatureModuleDeclares() {
        Container.Registrations.isolated {
            #expect(AFeatureContainer.optionalService() == nil)
            AFeatureContainer.optionalService.register { Service() }
            #expect(AFeatureContainer.optionalService()?.name == "app's service")
        }
    }

    @Test func dynamicRegistration() {
        Container.Registrations.isolated {
            #expect(Container.userProviding().user == nil)
            authenticated(with: User(name: "alice"))
            #expect(Container.userProviding().user?.name == "alice")
        }
    }
}

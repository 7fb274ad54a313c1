// Factory 1.x's README samples and its users' questions (hmlongco/Factory), verbatim, in Swift 5 language mode:
// `static var session = Cached()` included.
// SwiftUI views and ObservableObject are left out: SwiftUI and Combine do not exist on Linux.
import Forge
import XCTest

protocol MyServiceType { func text() -> String }
class MyService: MyServiceType { func text() -> String { "live" } }
class MockService2: MyServiceType { func text() -> String { "mock2" } }
class MockServiceN: MyServiceType {
    let n: Int
    init(_ n: Int) { self.n = n }
    func text() -> String { "mock\(n)" }
}
class MyConstructedService {
    let service: MyServiceType
    init(service: MyServiceType) { self.service = service }
}
class SimpleService {}
class Authentication {}
protocol APIServiceType {}
class APIService: APIServiceType {}
class AnotherService { init(_ service: SimpleService?) {} }

extension Container {
    static let myService = Factory<MyServiceType> { MyService() }
}

extension Container {
    static let sharedService = Factory<MyServiceType>(scope: .shared) { MyService() }
}

extension Container {
    static func setupMocks() {
        myService.register { MockServiceN(4) }
        sharedService.register { MockService2() }
    }
}

extension Container.Scope {
    static var session = Cached()
}

extension Container {
    static let authentication = Factory(scope: .session) { Authentication() }
}

func logout() {
    Container.Scope.session.reset()
}

extension Container {
    static let constructedService = Factory { MyConstructedService(service: myService()) }
}

extension SharedContainer {
    static let myServiceType = Factory<MyServiceType> { MyService() }
}

class OrderContainer: SharedContainer {
    static let optionalService = Factory<SimpleService?> { nil }
    static let constructedService = Factory { MyConstructedService(service: myServiceType()) }
    static let additionalService = Factory(scope: .session) { SimpleService() }
}

class PaymentsContainer: SharedContainer {
    static let anotherService = Factory { AnotherService(OrderContainer.optionalService()) }
}

extension SharedContainer {
    static let api = Factory<APIServiceType> { APIService() }
}

class ContentViewModel {
    @Injected(Container.myService) private var myService
    func text() -> String { myService.text() }
}

class CustomContainer: SharedContainer {
    static let poc = Factory<String>(scope: .singleton) {
        "Initial project"
    }
}

final class ViewModelPoc {
    @LazyInjected(CustomContainer.poc) private var poc

    func unitTestMethod() -> String {
        "Result: \(poc)"
    }
}

final class FactoryReadmeSamplesSwift5Tests: XCTestCase {

    override func setUp() {
        super.setUp()
        Container.Registrations.push()
    }

    override func tearDown() {
        super.tearDown()
        Container.Registrations.pop()
    }

    func testSamplesBehaveAsTheTextSays() {
        XCTAssertEqual(ContentViewModel().text(), "live")
        Container.setupMocks()
        XCTAssertEqual(ContentViewModel().text(), "mock4")
        XCTAssertEqual(Container.sharedService().text(), "mock2")

        let auth = Container.authentication()
        XCTAssertTrue(Container.authentication() === auth)
        logout()
        XCTAssertFalse(Container.authentication() === auth)

        XCTAssertNil(OrderContainer.optionalService())
        XCTAssertEqual(OrderContainer.constructedService().service.text(), "live")
        XCTAssertTrue(OrderContainer.additionalService() === OrderContainer.additionalService())
        _ = PaymentsContainer.anotherService()
        XCTAssertTrue(Container.api() is APIService)
    }

    func testRegisterInSetUpReplacesASingleton() {
        XCTAssertEqual(ViewModelPoc().unitTestMethod(), "Result: Initial project")
        CustomContainer.poc.register { "Test project" }
        XCTAssertEqual(ViewModelPoc().unitTestMethod(), "Result: Test project")
    }
}

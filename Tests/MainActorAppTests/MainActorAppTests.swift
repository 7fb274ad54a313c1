// The main-actor app's services tested as its team would, in a test module whose default isolation is the main actor
// too: strict, parallel, each test with its own mock; and the built app, run.
import Forge
import ForgeTesting
import Foundation
import MainActorServices
import Testing

/// A test's backend: a mock is `nonisolated`, as the services it stands for are.
nonisolated final class MockAPI: APIClient {
    let user: String

    init(user: String) { self.user = user }

    func currentUser() -> String { user }
    func feed(for user: String) async -> [String] { ["mock feed of \(user)"] }
}

extension Container {
    /// The thread its closure ran on.
    static let threadOfTheClosure = Factory { currentThread() }.liveInTests
    /// Whether its async closure ran on the main actor.
    static let asyncClosureOnTheMainActor = AsyncFactory { await runsOnTheMainActor() }.liveInTests
}

/// The thread this runs on (`Thread.current` cannot be read in an async function itself).
nonisolated func currentThread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

/// Whether its caller runs on the main actor: it runs where its caller does (NonisolatedNonsendingByDefault).
nonisolated func runsOnTheMainActor() async -> Bool {
    // Read into a constant first: compared in one expression, `#isolation` crashes Swift 6.3.1's optimizer.
    let isolation = #isolation
    return isolation === MainActor.shared
}

/// Where a factory resolved in a nonisolated async function runs its closure: the function's actor (its caller's,
/// under NonisolatedNonsendingByDefault), and whether the closure ran on the function's own thread.
nonisolated func resolveInANonisolatedAsyncFunction() async -> (onTheMainActor: Bool, onTheCallersThread: Bool) {
    let here = currentThread()
    let isolation = #isolation
    return (isolation === MainActor.shared, Container.threadOfTheClosure() == here)
}

/// The same, from a `@concurrent` function: on the concurrent pool, whoever calls it.
@concurrent func resolveInAConcurrentFunction() async -> (onTheMainActor: Bool, onTheCallersThread: Bool) {
    let here = currentThread()
    let isolation = #isolation
    return (isolation === MainActor.shared, Container.threadOfTheClosure() == here)
}

@Suite(.isolatedRegistrations(.strict)) struct MainActorAppTests {
    @Test("Each of 40 parallel tests sees its own mock, through every kind of factory", arguments: 0..<40)
    func eachTestSeesItsOwnMock(n: Int) async {
        Container.api.register { MockAPI(user: "mock \(n)") }
        #expect(Container.profile().title == "Profile of mock \(n)")  // on the main actor, as the test runs
        await Task.yield()  // lets the other tests run in between
        #expect(Container.greeting("Ada") == "mock \(n) greets Ada")
        #expect(await Container.feed() == ["mock feed of mock \(n)"])
    }

    @Test("A detached task the test carries its world to resolves the test's mock, off the main actor")
    func backgroundResolution() async {
        Container.api.register { MockAPI(user: "background") }
        let registrations = Container.Registrations.capture()
        let name = await Task.detached { registrations.run { Container.account().name } }.value
        #expect(name == "background")
    }

    @Test("A factory's closure runs where it is resolved: a nonisolated async function is on its caller's actor")
    func whereClosuresRun() async {
        let nonisolated = await resolveInANonisolatedAsyncFunction()  // called from the main actor
        #expect(nonisolated.onTheMainActor && nonisolated.onTheCallersThread)
        let concurrent = await resolveInAConcurrentFunction()
        #expect(!concurrent.onTheMainActor && concurrent.onTheCallersThread)
        #expect(await !Container.asyncClosureOnTheMainActor())  // an async factory's closure: off the caller's actor
    }

    @Test("Logout resets the session scope: the next account is the next user's")
    func logoutResetsTheSession() {
        Container.api.register { LiveAPI() }
        let first = Container.account()
        #expect(Container.account() === first)
        logout()
        #expect(Container.account() !== first)
        #expect(Container.account().name == "user 2")
    }
}

@Suite struct MainActorAppExecutableTests {
    @Test("The built app resolves from the main actor, a background task and a nonisolated function, and logs out")
    func runs() throws {
        let process = Process()
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("MainActorApp") }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        let executable = try #require(found, "MainActorApp not built; run `swift build` first")
        process.executableURL = executable
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            String(decoding: data, as: UTF8.self) == """
                registerAllServices()
                Profile of user 1
                in the background: user 1
                a container of the app's own, in the background: true
                nonisolated: user 1 greets Ada
                feed: welcome, user 1
                after logout: Profile of user 2

                """)
    }
}

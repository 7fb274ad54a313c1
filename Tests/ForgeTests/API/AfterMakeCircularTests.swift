// afterMake's circular references, as Swinject's initCompleted: inside a factory's hook, on the thread or in the task
// making its instance, resolving the factory gets that instance, so a child the hook wires may refer back to it.
// Other threads still wait for the hook, and other tasks of an async resolution make their own graph instance; a cycle
// of closures still stops, as does one through a unique factory.
import Dispatch
import Testing

@testable import Forge

/// A parent that its `afterMake` hook completes with a child.
private final class Parent: Sendable {
    let id: Int
    private let children = Locked<(child: Child?, next: Parent?)>((nil, nil))
    init(_ id: Int = 0) { self.id = id }

    /// What the hook wired.
    var child: Child? {
        get { children.value.child }
        set { children.mutate { $0.child = newValue } }
    }
    /// Another parent the hook resolved.
    var next: Parent? {
        get { children.value.next }
        set { children.mutate { $0.next = newValue } }
    }
}

/// A child that refers back to its parent, weakly, as Swinject's samples do.
private final class Child: Sendable {
    weak let parent: Parent?
    /// What another resolution in the child's closure got: `tryResolve()` of the parent, or another parent.
    weak let other: Parent?
    init(parent: Parent?, other: Parent? = nil) {
        self.parent = parent
        self.other = other
    }
}

/// Holds the first caller in the parent's hook while a second one asks for the parent.
private let racedHook = Gate()

/// A `graph` instance that its async hook completes: says whether the hook returned, and what a task the hook started
/// got.
private final class Completion: Sendable {
    let isComplete = Locked(false)
    let fromChildTask = Locked<ObjectIdentifier?>(nil)
}

/// What the two tasks of one async resolution got: the first's instance, and the second's with whether it was complete
/// when the second got it.
private struct Siblings: Sendable {
    let first: Completion
    let second: Completion
    let secondWasComplete: Bool
}

/// The graph's first hook is running, and holds there until the sibling task resolved the graph's factory.
private let siblingHookCalls = Counter()
private let siblingHookRunning = Occurrences("the first graph instance's hook ran")
private let siblingResolved = Occurrences("the sibling task resolved the graph's factory")

// Factories that refer to each other need their types spelled out: Swift cannot infer them in a cycle.
extension Container {
    fileprivate static let graphParent: Factory<Parent> = Factory(scope: .graph) { Parent() }
        .afterMake { $0.child = graphChild() }
    fileprivate static let graphChild: Factory<Child> = Factory(scope: .graph) {
        Child(parent: graphParent(), other: try? graphParent.tryResolve())
    }
    fileprivate static let cachedParent: Factory<Parent> = Factory(scope: .cached) { Parent() }
        .afterMake { $0.child = cachedChild() }
    fileprivate static let cachedChild: Factory<Child> = Factory(scope: .cached) {
        Child(parent: cachedParent(), other: try? cachedParent.tryResolve())
    }
    fileprivate static let singletonParent: Factory<Parent> = Factory(scope: .singleton) { Parent() }
        .afterMake { $0.child = singletonChild() }
    fileprivate static let singletonChild: Factory<Child> = Factory(scope: .singleton) {
        Child(parent: singletonParent(), other: try? singletonParent.tryResolve())
    }
    fileprivate static let sharedParent: Factory<Parent> = Factory(scope: .shared) { Parent() }
        .afterMake { $0.child = sharedChild() }
    fileprivate static let sharedChild: Factory<Child> = Factory(scope: .shared) {
        Child(parent: sharedParent(), other: try? sharedParent.tryResolve())
    }
    fileprivate static let sessionParent: Factory<Parent> = Factory(scope: .session) { Parent() }
        .afterMake { $0.child = sessionChild() }
    fileprivate static let sessionChild: Factory<Child> = Factory {
        Child(parent: sessionParent(), other: try? sessionParent.tryResolve())
    }
    fileprivate static let expiringParent: Factory<Parent> = Factory(scope: .cached) { Parent() }
        .timeToLive(60)
        .afterMake { $0.child = expiringChild() }
    fileprivate static let expiringChild: Factory<Child> = Factory {
        Child(parent: expiringParent(), other: try? expiringParent.tryResolve())
    }
    /// One instance per value: the first's hook resolves the second, whose child asks for both.
    fileprivate static let keyedParent: ParameterFactory<Int, Parent> = ParameterFactory(scope: .cached) {
        Parent($0)
    }
    .scopeOnParameters
    .afterMake { parent in
        parent.child = keyedChild(parent.id)
        if parent.id == 1 { parent.next = keyedParent(2) }
    }
    fileprivate static let keyedChild: ParameterFactory<Int, Child> = ParameterFactory {
        Child(parent: keyedParent($0), other: keyedParent(1))
    }
    fileprivate static let uniqueParent: Factory<Parent> = Factory { Parent() }
        .afterMake { $0.child = uniqueChild() }
    fileprivate static let uniqueChild: Factory<Child> = Factory { Child(parent: uniqueParent()) }
    /// The cycle is in the closure, before the instance exists: the hook changes nothing.
    fileprivate static let closureParent: Factory<Parent> = Factory(scope: .cached) {
        let parent = Parent()
        parent.child = closureChild()
        return parent
    }
    .afterMake { _ in }
    fileprivate static let closureChild: Factory<Child> = Factory { Child(parent: closureParent()) }
    fileprivate static let racedParent: Factory<Parent> = Factory(scope: .cached) { Parent() }
        .afterMake { parent in
            racedHook.pass()
            parent.child = racedChild()
        }
    fileprivate static let racedChild: Factory<Child> = Factory { Child(parent: racedParent()) }

    fileprivate static let asyncGraphParent: AsyncFactory<Parent> = AsyncFactory(scope: .graph) { Parent() }
        .afterMake { $0.child = await asyncGraphChild() }
    fileprivate static let asyncGraphChild: AsyncFactory<Child> = AsyncFactory(scope: .graph) {
        Child(parent: await asyncGraphParent(), other: try? await asyncGraphParent.tryResolve())
    }
    /// The hook resolves the factory in a task it starts.
    fileprivate static let childTaskGraph: AsyncFactory<Completion> = AsyncFactory(scope: .graph) { Completion() }
        .afterMake { made in
            async let fromChildTask = childTaskGraph()
            let got = ObjectIdentifier(await fromChildTask)
            made.fromChildTask.value = got
        }
    /// The first instance's hook holds until a sibling task of the same resolution resolved the factory.
    fileprivate static let siblingGraph: AsyncFactory<Completion> = AsyncFactory(scope: .graph) { Completion() }
        .afterMake { made in
            if siblingHookCalls.increment() == 1 {
                siblingHookRunning.signal()
                await siblingResolved.expect()
            }
            made.isComplete.value = true
        }
    fileprivate static let siblingOfTheHook: AsyncFactory<(Completion, Bool)> = AsyncFactory {
        await siblingHookRunning.expect()
        let got = await siblingGraph()
        defer { siblingResolved.signal() }
        return (got, got.isComplete.value)
    }
    fileprivate static let siblings: AsyncFactory<Siblings> = AsyncFactory {
        async let first = siblingGraph()
        async let second = siblingOfTheHook()
        let (got, wasComplete) = await second
        return Siblings(first: await first, second: got, secondWasComplete: wasComplete)
    }
    /// The child is made in a task of its own, which the hook awaits.
    fileprivate static let asyncCachedParent: AsyncFactory<Parent> = AsyncFactory(scope: .cached) { Parent() }
        .afterMake { $0.child = await asyncCachedChild() }
    fileprivate static let asyncCachedChild: AsyncFactory<Child> = AsyncFactory(scope: .cached) {
        Child(parent: await asyncCachedParent(), other: try? await asyncCachedParent.tryResolve())
    }
    /// The child is made in the hook's own task.
    fileprivate static let asyncSingletonParent: AsyncFactory<Parent> = AsyncFactory(scope: .singleton) {
        Parent()
    }
    .afterMake { $0.child = await asyncUniqueChild() }
    fileprivate static let asyncUniqueChild: AsyncFactory<Child> = AsyncFactory {
        Child(parent: await asyncSingletonParent(), other: try? await asyncSingletonParent.tryResolve())
    }
}

/// Checks that `parent`'s hook completed it with a child whose closure got `parent` itself, by a call and by
/// `tryResolve()`.
private func expectCompleted(_ parent: Parent, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let child = try #require(parent.child, "the hook set no child", sourceLocation: sourceLocation)
    #expect(child.parent === parent, sourceLocation: sourceLocation)
    #expect(parent.child?.parent === parent, sourceLocation: sourceLocation)
    #expect(child.other === parent, "tryResolve() in the hook", sourceLocation: sourceLocation)
}

@Suite struct AfterMakeCircularTests {
    @Test("Inside its afterMake hook, resolving a graph-scoped parent gets the instance being completed")
    func graph() throws {
        try Container.Registrations.isolated {
            let parent = Container.graphParent()
            try expectCompleted(parent)
            #expect(Container.graphParent() !== parent, "one instance per resolution")
        }
    }

    @Test("So does resolving a cached, singleton, shared, session-scoped or expiring one, which the scope then keeps")
    func scopesThatKeepInstances() throws {
        try Container.Registrations.isolated {
            let cached = Container.cachedParent()
            try expectCompleted(cached)
            #expect(Container.cachedParent() === cached)
            #expect(Container.cachedChild() === cached.child)
            let singleton = Container.singletonParent()
            try expectCompleted(singleton)
            #expect(Container.singletonChild() === singleton.child)
            let shared = Container.sharedParent()
            try expectCompleted(shared)
            #expect(Container.sharedParent() === shared)
            #expect(Container.sharedChild() === shared.child)
            let session = Container.sessionParent()
            try expectCompleted(session)
            #expect(Container.sessionParent() === session)
            let expiring = Container.expiringParent()
            try expectCompleted(expiring)
            #expect(Container.expiringParent() === expiring)
        }
    }

    @Test("With an instance per value, each hook's resolutions get the instance of their own value")
    func perValue() throws {
        try Container.Registrations.isolated {
            let first = Container.keyedParent(1)
            let second = try #require(first.next)
            #expect(second.id == 2)
            #expect(first.child?.parent === first)
            #expect(second.child?.parent === second)
            // Resolved inside the second's hook, the first is the one being completed further out.
            #expect(second.child?.other === first)
            #expect(Container.keyedParent(2) === second)
        }
    }

    @Test("Async factories: in the hook's task, and in a task it awaits, resolving the parent gets it")
    func async() async throws {
        try await Container.Registrations.isolated { () async throws in
            try expectCompleted(await Container.asyncGraphParent())
            let cached = await Container.asyncCachedParent()
            try expectCompleted(cached)
            #expect(await Container.asyncCachedChild() === cached.child)
            let singleton = await Container.asyncSingletonParent()
            try expectCompleted(singleton)
            #expect(await Container.asyncSingletonParent() === singleton)
        }
    }

    @Test("An async graph instance: a task its hook starts gets it too")
    func asyncGraphInAChildTask() async {
        let made = await Container.childTaskGraph()
        #expect(made.fromChildTask.value == ObjectIdentifier(made))
    }

    @Test("An async graph instance: another task of the resolution never gets it before its hook returned")
    func asyncGraphSibling() async {
        let got = await Container.siblings()
        // The sibling made its own, as a task that finds no instance does; the first recorded is the resolution's.
        #expect(got.secondWasComplete, "the sibling got an instance whose afterMake hook had not returned")
        #expect(got.first === got.second, "one instance per resolution")
        #expect(got.first.isComplete.value)
    }

    @Test("With cycle detection off, as in release builds, the parent is completed the same way")
    func withoutCycleDetection() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.detectsCycles = false
            for parent in [Container.graphParent(), Container.cachedParent(), Container.singletonParent()] {
                precondition(parent.child?.parent === parent && parent.child?.other === parent)
            }
        }
    }

    @Test("A unique parent has no instance to share: resolving it from its hook is a cycle, and the message says so")
    func uniqueIsACycle() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            _ = Container.uniqueParent()
        }
        let text = standardError(result)
        try expectParentChildParentCycle(text)
        #expect(text.contains("is unique, so its afterMake hook has no instance to share"))
    }

    @Test("A cycle of closures still stops with its chain, though the parent has a hook")
    func closureCycleStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            _ = Container.closureParent()
        }
        let text = standardError(result)
        try expectParentChildParentCycle(text)
        #expect(!text.contains("afterMake"))
    }

    @Test("Resolving the child first is a cycle: its closure needs the parent, whose hook needs a child not made yet")
    func childFirstIsACycle() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Diagnostics.detectsCycles = true
            _ = Container.cachedChild()
        }
        let steps = chainLines(standardError(result))
        try #require(steps.count == 3, "\(standardError(result))")
        #expect(steps[0].hasPrefix("    Factory<Child> (ForgeTests/AfterMakeCircularTests.swift:"))
        #expect(steps[1].hasPrefix(" -> Factory<Parent> (ForgeTests/AfterMakeCircularTests.swift:"))
    }

    @Test("A thread that asks while the first completes the parent waits, then gets it with its child")
    func racingFirstResolution() async throws {
        try await Container.Registrations.isolated { () async throws in
            let world = Container.Registrations.capture()
            let slot = World.current.slot(for: Container.racedParent.box)
            let resolve: @Sendable () -> [ObjectIdentifier?] = {
                world.run {
                    let parent = Container.racedParent()
                    return [ObjectIdentifier(parent), parent.child?.parent.map(ObjectIdentifier.init)]
                }
            }
            let first = RacingCallers(1, "the parent's first caller", resolve)
            try #require(await racedHook.waitUntilEntered())
            let second = RacingCallers(1, "the parent's second caller", resolve)
            await second.allAsking()
            // The second caller waits for the creation: it was not handed the instance the hook is completing.
            let waits = await waitUntil("the second caller waits for the parent's creation") {
                slot.withLock { $0.creation.hasWaiters }
            }
            racedHook.release()
            let made = await first.results()
            #expect(made.count == 1 && made[0][0] != nil && made[0][1] == made[0][0], "\(made)")
            #expect(await second.results() == made)
            #expect(waits)
        }
    }
}

/// The lines of a circular dependency's message that name its chain.
private func chainLines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.hasPrefix("    Factory<") || $0.hasPrefix(" -> ") }
}

/// Expects `text` to be a circular dependency whose chain is this file's parent, its child, and the parent again.
private func expectParentChildParentCycle(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(text.contains("Forge: circular dependency."), sourceLocation: sourceLocation)
    let steps = chainLines(text)
    try #require(steps.count == 3, "\(text)", sourceLocation: sourceLocation)
    let site = "(ForgeTests/AfterMakeCircularTests.swift:"
    #expect(steps[0].hasPrefix("    Factory<Parent> \(site)"), sourceLocation: sourceLocation)
    #expect(steps[1].hasPrefix(" -> Factory<Child> \(site)"), sourceLocation: sourceLocation)
    #expect(steps[2] == " -> " + steps[0].dropFirst(4), sourceLocation: sourceLocation)
}

/// Whether `condition` came to hold within `seconds`, looked at again after each yield; records an issue that names
/// `what` at the deadline.
private func waitUntil(
    _ what: String, within seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async -> Bool {
    let deadline = DispatchTime.now() + seconds
    while !condition() {
        guard DispatchTime.now() < deadline else {
            Issue.record("Deadline missed: \(what) within \(seconds) s", sourceLocation: sourceLocation)
            return false
        }
        await Task.yield()
    }
    return true
}

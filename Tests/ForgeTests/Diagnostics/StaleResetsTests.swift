import ForgeTesting
// Stale dependents a reset left: not reported at the reset, which usually restores what a test changed just before
// its scopes are reset; reported when a resolution returns one of them, still in use.
import Foundation
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class Piece: Sendable {}
private final class Assembly: Sendable {
    let pieces: [AnyObject & Sendable]
    init(_ pieces: [AnyObject & Sendable]) { self.pieces = pieces }
}

extension Container {
    /// What the tests override, then reset.
    fileprivate static let resetLeaf = Factory { Piece() }
    fileprivate static let resetHolder = Factory(scope: .cached) { Assembly([resetLeaf()]) }
    fileprivate static let resetOuter = Factory(scope: .cached) { Assembly([resetHolder()]) }
    fileprivate static let resetOfLeafTwo = Factory(scope: .cached) { Assembly([resetLeaf()]) }
    /// A kept dependency whose instance a reset(.scope) drops.
    fileprivate static let resetKeptLeaf = Factory(scope: .cached) { Piece() }
    fileprivate static let resetOfKept = Factory(scope: .cached) { Assembly([resetKeptLeaf()]) }
    fileprivate static let resetPerValue = ParameterFactory<Int, Assembly>(scope: .cached) { value in
        Assembly(value == 1 ? [resetLeaf()] : [])
    }
    .scopeOnParameters
    fileprivate static let resetAsyncHolder = AsyncFactory(scope: .cached) { Assembly([resetLeaf()]) }
    fileprivate static let resetShared = Factory(scope: .shared) { Assembly([resetLeaf()]) }
    fileprivate static let resetExpiring = Factory(scope: .cached) { Assembly([resetLeaf()]) }.timeToLive(10)
    fileprivate static let resetExpiringPerValue = ParameterFactory<Int, Assembly>(scope: .cached) { _ in
        Assembly([resetLeaf()])
    }
    .scopeOnParameters.timeToLive(10)
    /// Made with two factories that tests override.
    fileprivate static let resetOfBoth = Factory(scope: .cached) { Assembly([resetLeaf(), resetKeptLeaf()]) }
    fileprivate static let resetAsyncShared = AsyncFactory(scope: .shared) { Assembly([resetLeaf()]) }
    fileprivate static let resetSharedTwo = Factory(scope: .shared) { Assembly([resetLeaf()]) }
}

/// Whether this build records what kept instances resolve by default: debug builds do, release builds do not.
private let records = Container.Diagnostics.staleDependents != .off

@Suite(.enabled(if: records, "release builds look for none by default")) struct StaleResetsTests {
    @Test("A reset that left kept instances stale is reported when a resolution returns one, once, not at the reset")
    func reportedWhenUsed() async throws {
        let leaf = Container.resetLeaf.box.displayName
        let issues = try await collectingIssues(of: .isolatedRegistrations) { issues in
            Container.resetLeaf.register { Piece() }
            let outer = Container.resetOuter()
            Container.resetLeaf.reset()
            #expect(issues.all.isEmpty, "nothing at the reset: \(issues.all)")
            #expect(Container.resetOuter() === outer, "resolving it returns it still")
            #expect(issues.all.count == 1, "\(issues.all)")
            _ = Container.resetHolder()
            _ = Container.resetOuter()
        }
        try #require(issues.count == 1, "one report per reset: \(issues)")
        let text = issues[0].comment
        #expect(
            text.hasPrefix("Forge: stale dependents. \(leaf) was reset, with reset(), in the isolated world"), "\(text)"
        )
        let (holder, outer) = (Container.resetHolder.box.displayName, Container.resetOuter.box.displayName)
        #expect(text.contains("    \(holder), scope cached\n     -> \(leaf)\n"), "\(text)")
        #expect(text.contains("    \(outer), scope cached\n     -> \(holder), scope cached\n     -> \(leaf)\n"))
        #expect(text.contains("\n\(outer) was resolved after the reset, and got one of them.\n"), "\(text)")
        #expect(text.contains("call resetDependents() on the factory declared at ForgeTests/StaleResetsTests.swift:"))
        #expect(issues[0].onTheTestsTask)
    }

    @Test("reset(.scope) of a kept dependency, and Registrations.reset(), are reported the same way")
    func scopeAndRegistrationsResets() async {
        let (_, scope) = await collectingProblems(named: "scope reset") {
            let holder = Container.resetOfKept()
            Container.resetKeptLeaf.reset(.scope)
            _ = Container.resetKeptLeaf()  // its own new instance: no holder
            #expect(Container.resetOfKept() === holder)
        }
        #expect(scope.map(\.chain) == [[Container.resetOfKept.box.displayName]], "\(scope)")
        #expect(scope.first?.description.contains("was reset, with reset(.scope), in the isolated world") == true)
        let (_, registrations) = await collectingProblems(named: "registrations reset") {
            Container.resetLeaf.register { Piece() }
            _ = Container.resetHolder()
            Container.Registrations.reset()
            _ = Container.resetHolder()
        }
        #expect(registrations.map(\.chain) == [[Container.resetHolder.box.displayName]], "\(registrations)")
        #expect(
            registrations.first?.description.contains("was returned to its baseline by Registrations.reset() in")
                == true,
            "\(registrations)")
    }

    @Test("Registrations.reset() that returns two factories is one report: every instance, through each factory")
    func registrationsResetIsOneReport() async throws {
        let (_, problems) = await collectingProblems(named: "two factories") {
            Container.resetLeaf.register { Piece() }
            Container.resetKeptLeaf.register { Piece() }
            let both = Container.resetOfBoth()
            _ = Container.resetHolder()  // made with resetLeaf only
            _ = Container.resetOfKept()  // made with resetKeptLeaf only
            Container.Registrations.reset()
            #expect(Container.resetOfBoth() === both)
            _ = Container.resetHolder()
            _ = Container.resetOfKept()
        }
        try #require(problems.count == 1, "one reset, one report: \(problems)")
        let name = { (factory: FactoryBox) in factory.displayName }
        let (leaf, keptLeaf) = (name(Container.resetLeaf.box), name(Container.resetKeptLeaf.box))
        let (both, holder, ofKept) = (
            name(Container.resetOfBoth.box), name(Container.resetHolder.box), name(Container.resetOfKept.box)
        )
        #expect(Set(problems[0].chain) == [both, holder, ofKept])
        let text = problems[0].description
        let changed = [leaf, keptLeaf].sorted()
        #expect(
            text.hasPrefix(
                "Forge: stale dependents. \(changed[0]) and \(changed[1]) were returned to their baselines by "
                    + "Registrations.reset() in the isolated world"),
            "\(text)")
        // The instance made with both is named through each.
        #expect(text.contains("    \(both), scope cached\n     -> \(leaf)\n"), "\(text)")
        #expect(text.contains("    \(both), scope cached\n     -> \(keptLeaf)\n"), "\(text)")
        #expect(text.contains("    \(holder), scope cached\n     -> \(leaf)\n"), "\(text)")
        #expect(text.contains("    \(ofKept), scope cached\n     -> \(keptLeaf)\n"), "\(text)")
        #expect(text.contains("call resetDependents() on the factories declared at ForgeTests/StaleResetsTests.swift:"))
        #expect(text.contains(" just before Registrations.reset(), which drops the instances"), "\(text)")
        #expect(problems[0].factory == "\(changed[0]) and \(changed[1])")
    }

    @Test("No report when what the reset left is dropped before use, or the reset took nothing away")
    func noFalseAlarms() async {
        let (_, problems) = await collectingProblems(named: "dropped first") {
            // The scopes reset after the registrations: a test's tear-down.
            Container.resetLeaf.register { Piece() }
            _ = Container.resetOuter()
            Container.Registrations.reset()
            Container.Scope.cached.reset()
            _ = Container.resetOuter()
            // resetDependents() just before the reset.
            Container.Scope.cached.reset()
            Container.resetLeaf.register { Piece() }
            _ = Container.resetOuter()
            Container.resetLeaf.resetDependents()
            Container.resetLeaf.reset()
            _ = Container.resetOuter()
            // A kept factory's registration reset that keeps its instance: its holders have what it returns.
            let kept = Container.resetKeptLeaf()
            _ = Container.resetOfKept()
            Container.resetKeptLeaf.reset(.registration)
            #expect(Container.resetKeptLeaf() === kept)
            _ = Container.resetOfKept()
            // A reset that changes nothing: the leaf has no override now.
            Container.resetLeaf.reset()
            _ = Container.resetHolder()
            // pop() drops what was made since its push(), and restores what was made before with.
            Container.Scope.cached.reset()
            Container.Registrations.push()
            Container.resetLeaf.register { Piece() }
            let outer = Container.resetOuter()
            Container.Registrations.pop()
            #expect(Container.resetOuter() !== outer)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("A marked instance that expired is made anew, not reported; one alive is")
    func expiredInstances() async {
        let clock = Locked(0.0)
        let (_, problems) = await collectingProblems(named: "expiring") {
            Container.Registrations.isolated(runContext: .init(now: { clock.value })) {
                Container.resetLeaf.register { Piece() }
                let expiring = Container.resetExpiring()
                Container.resetLeaf.reset()
                clock.value = 20
                #expect(Container.resetExpiring() !== expiring)
                Container.resetExpiring.reset(.scope)  // made with the live leaf: registering would name it
                Container.resetLeaf.register { Piece() }
                let alive = Container.resetExpiring()
                Container.resetLeaf.reset()
                #expect(Container.resetExpiring() === alive)
            }
        }
        #expect(problems.count == 1, "the one alive: \(problems)")
        #expect(problems.first?.description.contains("was reset, with reset(),") == true, "\(problems)")
    }

    @Test("The report names no other marked instance that expired since the reset: the next resolution remakes it")
    func expiredInstancesAreNotNamed() async {
        let clock = Locked(0.0)
        let (_, problems) = await collectingProblems(named: "one expired") {
            Container.Registrations.isolated(runContext: .init(now: { clock.value })) {
                Container.resetLeaf.register { Piece() }
                _ = Container.resetExpiring()
                let holder = Container.resetHolder()
                Container.resetLeaf.reset()
                clock.value = 20
                #expect(Container.resetHolder() === holder)
            }
        }
        #expect(problems.map(\.chain) == [[Container.resetHolder.box.displayName]], "\(problems)")
        #expect(problems.first?.description.contains(Container.resetExpiring.box.displayName) == false)
        #expect(problems.first?.description.contains("just before resetting it, which drops") == true)
    }

    @Test("A parameter value's instance left stale is reported when that value's is returned, and only then")
    func parameterValues() async {
        let (_, problems) = await collectingProblems(named: "values") {
            Container.resetLeaf.register { Piece() }
            _ = Container.resetPerValue(1)
            _ = Container.resetPerValue(2)
            Container.resetLeaf.reset()
            _ = Container.resetPerValue(2)
            _ = Container.resetPerValue(1)
        }
        #expect(problems.count == 1, "\(problems)")
        #expect(
            problems.first?.description.contains(
                "    \(Container.resetPerValue.box.displayName), scope cached, for the parameter value 1\n") == true,
            "\(problems)")
        #expect(problems.first?.description.contains("parameter value 2") == false, "\(problems)")
    }

    @Test("A shared instance that died after the reset leaves no mark on the one made after it")
    func deadSharedInstance() async {
        let (_, problems) = await collectingProblems(named: "dead shared") {
            Container.resetLeaf.register { Piece() }
            // Alive at the reset, then let go of: only the weak scope knew of it.
            weak var marked: Assembly?
            do {
                let holder = Container.resetShared()
                marked = holder
                Container.resetLeaf.reset()
                withExtendedLifetime(holder) {}
            }
            #expect(marked == nil, "the test holds it no more")
            let fresh = Container.resetShared()  // made after the reset, with the leaf's own closure
            #expect(Container.resetShared() === fresh)
            withExtendedLifetime(fresh) {}
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("The report does not name a marked shared instance that died: nothing keeps it")
    func deadSharedInstanceIsNotNamed() async {
        let (_, problems) = await collectingProblems(named: "one shared died") {
            Container.resetLeaf.register { Piece() }
            let alive = Container.resetShared()
            weak var died: Assembly?
            do {
                let holder = Container.resetSharedTwo()
                died = holder
                Container.resetLeaf.reset()
                withExtendedLifetime(holder) {}
            }
            #expect(died == nil, "the test holds it no more")
            #expect(Container.resetShared() === alive)
        }
        #expect(problems.map(\.chain) == [[Container.resetShared.box.displayName]], "\(problems)")
    }

    @Test("An instance that expired after the reset is not reported: the resolution makes it anew")
    func expiredAfterTheReset() async {
        let clock = Locked(0.0)
        let (_, problems) = await collectingProblems(named: "expired after") {
            Container.Registrations.isolated(runContext: .init(now: { clock.value })) {
                Container.resetLeaf.register { Piece() }
                let expiring = Container.resetExpiring()
                let perValue = Container.resetExpiringPerValue(1)
                Container.resetLeaf.reset()
                clock.value = 20
                #expect(Container.resetExpiring() !== expiring)
                #expect(Container.resetExpiringPerValue(1) !== perValue)
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("tryResolve() that returns a parameter value's stale instance reports the reset")
    func tryResolveOfAParameterValue() async {
        let (_, problems) = await collectingProblems(named: "tried value") {
            Container.resetLeaf.register { Piece() }
            let kept = Container.resetPerValue(1)
            Container.resetLeaf.reset()
            let tried = try? Container.resetPerValue.tryResolve(1)
            #expect(tried === kept)
        }
        #expect(problems.map(\.chain) == [[Container.resetPerValue.box.displayName]], "\(problems)")
    }

    @Test("pop() that gives back the registration a reset took away leaves nothing stale")
    func popUndoesTheReset() async {
        let (_, problems) = await collectingProblems(named: "pop after reset") {
            Container.resetLeaf.register { Piece() }
            let holder = Container.resetHolder()
            Container.Registrations.push()
            Container.resetLeaf.reset()
            Container.Registrations.pop()  // the leaf's override again: what the holder was made with
            #expect(Container.resetHolder() === holder)
            // A later reset of the override it gives back dates it from its registration, before the holder.
            Container.resetLeaf.reset()
            #expect(Container.resetHolder() === holder)
        }
        #expect(problems.map(\.chain) == [[Container.resetHolder.box.displayName]], "the second reset: \(problems)")
    }

    @Test("A reset of an override registered after the holder was made is not reported: it was made without it")
    func resetOfAnOverrideTheHolderNeverGot() async {
        let (_, problems) = await collectingProblems(named: "register then reset") {
            let holder = Container.resetHolder()  // with the leaf's own closure
            Container.resetLeaf.register { Piece() }  // reported: the holder keeps the leaf's own instance
            Container.resetLeaf.reset()  // the leaf's own closure again: what the holder was made with
            #expect(Container.resetHolder() === holder)
        }
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.allSatisfy { $0.description.contains(" was registered in ") }, "\(problems)")
    }

    @Test("The report names the instances the reset left that are still kept")
    func namesWhatIsStillKept() async {
        let (_, problems) = await collectingProblems(named: "still kept") {
            Container.resetLeaf.register { Piece() }
            _ = Container.resetOuter()
            _ = Container.resetOfLeafTwo()
            Container.resetLeaf.reset()
            Container.resetOuter.reset(.scope)
            _ = Container.resetOfLeafTwo()
        }
        let stillKept: Set<String> = [Container.resetHolder.box.displayName, Container.resetOfLeafTwo.box.displayName]
        #expect(problems.map { Set($0.chain) } == [stillKept], "not the outer one, dropped: \(problems)")
    }

    @Test("An async resolution that returns a stale instance reports the reset")
    func asyncResolution() async {
        let (_, problems) = await collectingProblems(named: "async") {
            Container.resetLeaf.register { Piece() }
            let holder = await Container.resetAsyncHolder()
            Container.resetLeaf.reset()
            #expect(await Container.resetAsyncHolder() === holder)
        }
        #expect(problems.map(\.chain) == [[Container.resetAsyncHolder.box.displayName]], "\(problems)")
    }

    @Test("Threads that resolve a stale instance at once hear of the reset once")
    func racingResolutions() async {
        let (_, problems) = await collectingProblems(named: "racing") {
            Container.resetLeaf.register { Piece() }
            let outer = Container.resetOuter()
            Container.resetLeaf.reset()
            let registrations = Container.Registrations.capture()
            let callers = RacingCallers(8, "a thread") { registrations.run { Container.resetOuter() } }
            await callers.allAsking()
            #expect(await callers.results().allSatisfy { $0 === outer })
        }
        #expect(problems.map(\.kind) == [.staleDependents], "\(problems)")
    }
}

@Suite struct StaleResetsPolicyTests {
    @Test("Outside tests, a warning once; the resolutions' fast path comes back once the marks are gone")
    func warnsAndClears() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.staleDependents = .warn
            Container.resetLeaf.register { Piece() }
            _ = Container.resetOuter()
            Container.resetLeaf.reset()
            precondition(FastPathWord.current & FastPathWord.staleRecordings != 0, "marked: the slow path looks")
            _ = Container.resetOuter()
            _ = Container.resetOuter()
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0, "reported: marks cleared")
            // Marks that no resolution meets go with the instances they mark: a scope's reset, a world's end.
            Container.Scope.cached.reset()
            Container.resetLeaf.register { Piece() }
            _ = Container.resetOuter()
            Container.resetLeaf.reset()
            Container.Scope.cached.reset()
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0, "dropped with the instances")
            Container.Registrations.isolated {
                Container.resetLeaf.register { Piece() }
                _ = Container.resetOuter()
                Container.resetLeaf.reset()
            }
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0, "ended with the world")
        }
        let text = standardError(result)
        #expect(text.components(separatedBy: "Forge warning: stale dependents.").count == 2, "\(text)")
        #expect(text.contains("was reset, with reset(), in the process's world after instances kept there"), "\(text)")
    }

    @Test(
        "A marked shared instance that dies on its own leaves a void mark: never reported, cleared by the next hit"
    )
    func deadSharedInstances() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Diagnostics.staleDependents = .warn
            Container.resetLeaf.register { Piece() }
            var held: [Assembly] = [Container.resetShared(), await Container.resetAsyncShared()]
            Container.resetLeaf.reset()
            precondition(FastPathWord.current & FastPathWord.staleRecordings != 0, "marked")
            held = []  // each one dies, with no reset to drop its mark
            withExtendedLifetime(held) {}
            // Made anew, with the live leaf: not stale. The void mark goes when a resolution meets it on the new one.
            let shared = (Container.resetShared(), await Container.resetAsyncShared())
            precondition(Container.resetShared() === shared.0)
            let again = await Container.resetAsyncShared()
            precondition(again === shared.1)
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0, "the void marks went")
        }
        #expect(!standardError(result).contains("stale dependents"), "\(standardError(result))")
    }

    @Test(".off marks nothing: the fast path stays")
    func offMarksNothing() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.staleDependents = .off
            Container.resetLeaf.register { Piece() }
            _ = Container.resetOuter()
            Container.resetLeaf.reset()
            precondition(FastPathWord.current & FastPathWord.staleRecordings == 0)
        }
    }
}

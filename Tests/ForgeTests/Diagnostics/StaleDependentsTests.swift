// Stale dependents: what each kept instance's closure resolved is recorded with it, in its world.
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class Part: Sendable {}
private final class Whole: Sendable {
    let parts: [AnyObject & Sendable]
    init(_ parts: [AnyObject & Sendable]) { self.parts = parts }
}

extension Container {
    fileprivate static let staleLeaf = Factory { Part() }
    fileprivate static let staleCachedLeaf = Factory(scope: .cached) { Part() }
    /// Unique: what it resolves, its holder holds.
    fileprivate static let staleComposer = Factory { Whole([staleLeaf()]) }
    fileprivate static let staleHolder = Factory(scope: .cached) { Whole([staleComposer(), staleCachedLeaf()]) }
    fileprivate static let staleOuter = Factory(scope: .cached) { Whole([staleHolder()]) }
    fileprivate static let staleAsyncLeaf = AsyncFactory { Part() }
    fileprivate static let staleAsyncHolder = AsyncFactory(scope: .cached) {
        Whole([staleLeaf(), await staleAsyncLeaf()])
    }
    fileprivate static let staleAsyncOuter = AsyncFactory(scope: .cached) { Whole([await staleAsyncHolder()]) }
    fileprivate static let stalePerValue = ParameterFactory<Int, Whole>(scope: .cached) { value in
        Whole(value == 1 ? [staleLeaf()] : [])
    }
    .scopeOnParameters
    fileprivate static let staleHooked = Factory(scope: .cached) { Whole([]) }.afterMake { _ in _ = staleLeaf() }
}

/// Whether this build records what kept instances resolve by default: debug builds do, release builds do not.
private let records = Container.Diagnostics.staleDependents != .off

/// The factories the instance `box` keeps in the current world (for `value`'s cell, for a factory that keeps one
/// instance per parameter value) was recorded as resolving, as identities, in order.
private func recorded(by box: FactoryBox, for value: AnyHashable? = nil) -> [ObjectIdentifier] {
    let slot = World.current.slot(for: box)
    let target = value.map { slot.cell(for: $0) } ?? slot
    return target.withLock { $0.dependencies }.map(ObjectIdentifier.init)
}

private func ids(_ boxes: FactoryBox...) -> [ObjectIdentifier] { boxes.map(ObjectIdentifier.init) }

@Suite(.enabled(if: records, "release builds record nothing by default")) struct StaleDependentsTests {
    @Test("A kept instance records what its closure resolved: directly, through a unique factory, and a hit")
    func recordsWhatItsClosureResolved() {
        Container.Registrations.isolated {
            _ = Container.staleCachedLeaf()  // made first: the holder's closure finds it kept
            _ = Container.staleHolder()
            #expect(
                recorded(by: Container.staleHolder.box)
                    == ids(Container.staleComposer.box, Container.staleLeaf.box, Container.staleCachedLeaf.box))
            #expect(recorded(by: Container.staleCachedLeaf.box).isEmpty)
        }
    }

    @Test("A kept instance made inside another records its own; the other records it, not what it resolved")
    func nestedKeptInstancesRecordTheirOwn() {
        Container.Registrations.isolated {
            _ = Container.staleOuter()
            #expect(recorded(by: Container.staleOuter.box) == ids(Container.staleHolder.box))
            #expect(recorded(by: Container.staleHolder.box).count == 3)
        }
    }

    @Test("What it recorded goes with the instance, and a new instance records anew")
    func droppedWithTheInstance() {
        Container.Registrations.isolated {
            _ = Container.staleHolder()
            Container.staleHolder.reset(.scope)
            #expect(recorded(by: Container.staleHolder.box).isEmpty)
            Container.staleHolder.register { Whole([Container.staleLeaf()]) }
            _ = Container.staleHolder()
            #expect(recorded(by: Container.staleHolder.box) == ids(Container.staleLeaf.box))
            Container.Scope.cached.reset()
            #expect(recorded(by: Container.staleHolder.box).isEmpty)
        }
    }

    @Test("An async kept instance records what it awaited and what it resolved synchronously; nested ones their own")
    func asyncInstancesRecord() async {
        await Container.Registrations.isolated {
            _ = await Container.staleAsyncOuter()
            #expect(recorded(by: Container.staleAsyncOuter.box) == ids(Container.staleAsyncHolder.box))
            #expect(
                recorded(by: Container.staleAsyncHolder.box)
                    == ids(Container.staleLeaf.box, Container.staleAsyncLeaf.box))
        }
    }

    @Test("Each parameter value's instance records its own")
    func eachParameterValueRecords() {
        Container.Registrations.isolated {
            _ = Container.stalePerValue(1)
            _ = Container.stalePerValue(2)
            let box = Container.stalePerValue.box
            #expect(recorded(by: box, for: 1) == ids(Container.staleLeaf.box))
            #expect(recorded(by: box, for: 2).isEmpty)
            #expect(recorded(by: box).isEmpty, "the factory's slot keeps no instance of its own")
        }
    }

    @Test("What an afterMake hook resolves is a part of the instance")
    func afterMakeRecords() {
        Container.Registrations.isolated {
            _ = Container.staleHooked()
            #expect(recorded(by: Container.staleHooked.box) == ids(Container.staleLeaf.box))
        }
    }

    @Test("A resolution outside every kept instance's closure records nothing")
    func outsideRecordsNothing() {
        Container.Registrations.isolated {
            _ = Container.staleComposer()
            #expect(recorded(by: Container.staleComposer.box).isEmpty)
            #expect(ThreadResolutionState.current.dependencies == nil)
        }
    }
}

@Suite struct StaleDependentsPolicyTests {
    @Test(".off records nothing and sets no flag of the fast path; .warn records")
    func offRecordsNothing() async {
        await #expect(processExitsWith: .success) {
            Container.Diagnostics.staleDependents = .off
            _ = Container.staleHolder()
            precondition(Container.staleHolder.box.withLock { $0.dependencies }.isEmpty)
            precondition(FastPathWord.current & FastPathWord.staleRecording == 0)
            Container.Diagnostics.staleDependents = .warn
            Container.Scope.cached.reset()
            _ = Container.staleHolder()
            precondition(Container.staleHolder.box.withLock { $0.dependencies }.count == 3)
        }
    }
}

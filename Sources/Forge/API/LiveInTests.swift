// Forge: liveInTests, which says where a factory is declared that its live closure is safe to run in a strict test.

extension FactoryBox {
    /// A new factory: this one, whose live closures a strict test's world does not report.
    var markedLiveInTests: FactoryBox { modified { $0.isLiveInTests = true } }
}

extension Factory {
    /// Says that running this factory's live closure in tests is safe: a strict test's world
    /// (ForgeTesting's `.isolatedRegistrations(.strict)`, a strict `IsolatedTestCase`) does not report it.
    ///
    /// Apply it where the factory is declared: it returns a new factory.
    ///
    /// ```swift
    /// extension Container {
    ///     static let formatter = Factory { PriceFormatter() }.liveInTests
    ///     static let checkout = Factory { CheckoutViewModel() }.liveInTests   // resolves the others, checked in turn
    /// }
    /// ```
    ///
    /// In a strict test, a factory whose live closure runs in the test's world is an issue of that test: its own
    /// closure, a context's other than `onTest`'s (`onDebug`, `onArg`, `onPreview`), or the registration the app made
    /// in `registerAllServices()`, when neither the test nor an `onTest` closure overrode it. Mark the factories that
    /// are safe to run as they are: a formatter, a pure value, one that only makes others from their factories, such
    /// as a view model. The mark covers whatever runs for the factory when the test did not override it: its own
    /// closure, its contexts and the app's registration. What such a factory resolves is checked in turn, so a view
    /// model marked `liveInTests` still reports the live API client it resolves.
    public var liveInTests: Factory { Factory(box: box.markedLiveInTests) }
}

extension ParameterFactory {
    /// Says that running this factory's live closure in tests is safe. See ``Factory/liveInTests``.
    public var liveInTests: ParameterFactory { ParameterFactory(box: box.markedLiveInTests) }
}

extension MainActorFactory {
    /// Says that running this factory's live closure in tests is safe. See ``Factory/liveInTests``.
    public var liveInTests: MainActorFactory { MainActorFactory(box: box.markedLiveInTests) }
}

extension MainActorParameterFactory {
    /// Says that running this factory's live closure in tests is safe. See ``Factory/liveInTests``.
    public var liveInTests: MainActorParameterFactory { MainActorParameterFactory(box: box.markedLiveInTests) }
}

extension AsyncFactory {
    /// Says that running this factory's live closure in tests is safe. See ``Factory/liveInTests``.
    public var liveInTests: AsyncFactory { AsyncFactory(box: box.markedLiveInTests) }
}

extension AsyncThrowingFactory {
    /// Says that running this factory's live closure in tests is safe. See ``Factory/liveInTests``.
    public var liveInTests: AsyncThrowingFactory { AsyncThrowingFactory(box: box.markedLiveInTests) }
}

extension AsyncParameterFactory {
    /// Says that running this factory's live closure in tests is safe. See ``Factory/liveInTests``.
    public var liveInTests: AsyncParameterFactory { AsyncParameterFactory(box: box.markedLiveInTests) }
}

extension Contributions {
    /// Says that running every contribution the app makes to this list (in `registerAllServices()`) is safe in
    /// tests. See ``Factory/liveInTests``.
    ///
    /// Without it, in a strict test, each contribution the app made whose closure runs in the test's world is an
    /// issue of the test. Contributions a test makes in its own world are the test's, and never reported.
    public var liveInTests: Contributions { Contributions(box: box, appContributionsAreLiveInTests: true) }
}

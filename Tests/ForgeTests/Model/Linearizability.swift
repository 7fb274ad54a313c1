// Small concurrent histories checked against the model for linearizability: in one isolated world, a thread makes a
// few changes while two threads resolve a few factories; some order of all the operations, consistent with real time
// (an operation that returned before another began comes first), must give, run on the model, what each resolution
// got, up to the instances' serial numbers. A resolution that overlapped a change may get an instance its scope did
// not keep (Forge hands such an instance to its caller alone), so the model may run it without keeping.
import Dispatch
import Forge
import Foundation

/// One small history: what each thread did, with its ticks.
struct SmallHistory {
    struct Event {
        let op: Op
        let start: Int
        let end: Int
        let result: Observed.Value
        var isChange: Bool {
            switch op {
            case .resolve, .tryResolve: false
            default: true
            }
        }
    }

    let context: ModelRunContext
    /// Each thread's events, in the order it made them.
    let threads: [[Event]]

    /// The factories the resolvers ask for: each makes at most one instance per resolution (no dependency to make).
    static let resolvable = ["u", "s", "ctx", "app", "param"].map(ModelFactory.index(of:))
    static let promised = ModelFactory.index(of: "p")
    static let changeable = ["u", "s", "ctx", "app", "param", "p"].map(ModelFactory.index(of:))

    /// Runs a history from `seed`: a changing thread and two resolving threads, started together in a new world.
    static func record(seed: UInt64) -> SmallHistory {
        var generator = SplitMix64(seed: seed)
        let context = ModelRunContext.random(using: &generator)
        var scripts: [[Op]] = []
        var pushed = 0
        var changes: [Op] = []
        for number in 0..<3 {
            let factory = changeable.randomElement(using: &generator)!
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4: changes.append(.register(factory, number: number))
            case 4..<6:
                changes.append(.reset(factory, [.all, .scope, .registration].randomElement(using: &generator)!))
            case 6: changes.append(.resetScope([.cached, .singleton].randomElement(using: &generator)!))
            case 7:
                changes.append(.push)
                pushed += 1
            default:
                if pushed > 0 {
                    changes.append(.pop)
                    pushed -= 1
                } else {
                    changes.append(.push)
                    pushed += 1
                }
            }
        }
        scripts.append(changes)
        for _ in 0..<2 {
            scripts.append(
                (0..<2).map { _ in
                    Int.random(in: 0..<5, using: &generator) == 0
                        ? .tryResolve(promised)
                        : .resolve(
                            resolvable.randomElement(using: &generator)!,
                            parameter: Int.random(in: 0..<2, using: &generator))
                })
        }
        Recorder.start()
        let events = Locked<[[Event]]>(Array(repeating: [], count: scripts.count))
        Container.Registrations.isolated(runContext: context.forge) {
            let carried = Container.Registrations.capture()
            let start = Barrier(parties: scripts.count)
            let done = DispatchSemaphore(value: 0)
            for (thread, script) in scripts.enumerated() {
                Thread {
                    start.arriveAndWait()
                    carried.run {
                        var side = ForgeSide()
                        for op in script {
                            let begin = Recorder.ticks.next()
                            let result = side.perform(op)
                            let end = Recorder.ticks.next()
                            events.mutate { $0[thread].append(Event(op: op, start: begin, end: end, result: result)) }
                        }
                    }
                    done.signal()
                }.start()
            }
            for _ in scripts where done.wait(timeout: .now() + 60) == .timedOut {
                preconditionFailure("a small history's thread did not finish within 60 seconds")
            }
        }
        return SmallHistory(context: context, threads: events.value)
    }

    /// Whether some order of the events consistent with real time, run on the model (a resolution that overlapped a
    /// change keeping nothing, or keeping as usual), gives each resolution what it got.
    var isLinearizable: Bool {
        let all = threads.flatMap { $0 }
        let changes = all.filter(\.isChange)
        func overlapsAChange(_ event: Event) -> Bool {
            changes.contains { $0.start < event.end && event.start < $0.end }
        }
        var next = Array(repeating: 0, count: threads.count)
        var model = Model(context: context)
        let serials: [Int: Int] = [:]  // Forge's serial: the model's
        func search(_ model: inout Model, _ next: inout [Int], _ serials: [Int: Int]) -> Bool {
            let pending = threads.indices.filter { next[$0] < threads[$0].count }
            if pending.isEmpty { return true }
            for thread in pending {
                let event = threads[thread][next[thread]]
                // It can come next only if no other pending event returned before it began.
                let blocked = pending.contains { other in
                    other != thread && threads[other][next[other]].end < event.start
                }
                if blocked { continue }
                for keeps in event.isChange || !overlapsAChange(event) ? [true] : [true, false] {
                    var tried = model
                    tried.cachesNewInstances = keeps
                    guard let op = tried.plan(event.op) else { continue }
                    let observed = tried.apply(op)
                    guard let matched = match(event.result, observed.value, serials) else { continue }
                    tried.cachesNewInstances = true
                    next[thread] += 1
                    defer { next[thread] -= 1 }
                    if search(&tried, &next, matched) { return true }
                }
            }
            return false
        }
        return search(&model, &next, serials)
    }

    /// The serial renaming extended to make Forge's `forge` the model's `model`, or `nil` if they differ otherwise.
    private func match(_ forge: Observed.Value, _ model: Observed.Value, _ serials: [Int: Int]) -> [Int: Int]? {
        switch (forge, model) {
        case (.instance(let forge), .instance(let model)):
            guard forge.factory == model.factory, forge.maker == model.maker, forge.parameter == model.parameter
            else { return nil }
            if let known = serials[forge.serial] { return known == model.serial ? serials : nil }
            if serials.values.contains(model.serial) { return nil }
            return serials.merging([forge.serial: model.serial]) { first, _ in first }
        default:
            return forge == model ? serials : nil
        }
    }
}

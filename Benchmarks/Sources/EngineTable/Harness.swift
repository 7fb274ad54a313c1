// Times scenarios in rounds, each round running every scenario once, so that a slow moment of the machine
// lands on all of them alike. No malloc counting: an interposer slows every allocation.
import BlackHole
import Dispatch
import Foundation

struct Scenario: Sendable {
    let name: String
    let threads: Int
    /// Runs the operation `count` times on the calling thread.
    let run: @Sendable (_ count: Int) -> Void

    /// The name, with the number of threads when there are several.
    var id: String { threads == 1 ? name : "\(name), \(threads) threads" }

    init(_ name: String, threads: Int = 1, run: @escaping @Sendable (_ count: Int) -> Void) {
        self.name = name
        self.threads = threads
        self.run = run
    }

    /// Nanoseconds per operation, as each thread sees it (the mean over threads).
    func measure(operations: Int) -> Double {
        if threads == 1 { return Self.time(operations, run) }
        let results = Results(count: threads)
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            let thread = Thread { [run] in
                results.set(index, Self.time(operations, run))
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.all.reduce(0, +) / Double(threads)
    }

    private static func time(_ operations: Int, _ run: (Int) -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        run(operations)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations)
    }
}

/// One number per thread, each written by its own thread and read after they are joined.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double]
    init(count: Int) { values = Array(repeating: 0, count: count) }
    func set(_ index: Int, _ value: Double) { lock.withLock { values[index] = value } }
    var all: [Double] { lock.withLock { values } }
}

/// Runs every scenario once per round and returns each one's median over the rounds, in ns per operation.
func measure(_ scenarios: [Scenario], rounds: Int, operations: Int) -> [String: Double] {
    var samples: [String: [Double]] = [:]
    for scenario in scenarios { _ = scenario.measure(operations: operations / 10) }  // warm up
    for _ in 0..<rounds {
        for scenario in scenarios {
            samples[scenario.id, default: []].append(scenario.measure(operations: operations))
        }
    }
    return samples.mapValues { values in
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

// Forge: the task executor an async verify { } runs on, with a thread of its own that a problem may park.

/// Runs the jobs of an async ``SharedContainer/Diagnostics/verify(fileID:line:_:)-18jxy`` body on a
/// thread of its own, one at a time, so that a problem met in a closure that cannot throw parks that thread
/// (``Verification/abandon(with:)``), never one of Swift's cooperative threads.
///
/// Once the verification ends, its thread returns, and a job that comes later (of a task the body started with the
/// preference) goes to Swift's global executor; after a problem parked the thread, the jobs of the abandoned
/// resolution stay where they are, never run.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class VerificationExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var isStopped = false
        var isAbandoned = false
    }
    private let state = Locked(State())

    /// Starts the executor's thread, which runs as a part of `verification`: a problem met there is recorded in it.
    func start(runningAPartOf verification: Verification) {
        NewThread.start(for: "Container.Diagnostics.verify") { [self] in
            ThreadResolutionState.current.verification = verification
            runJobs()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (isStopped, isAbandoned) = state.withLock { state in
            if !state.isStopped && !state.isAbandoned { state.jobs.append(job) }
            return (state.isStopped, state.isAbandoned)
        }
        if !isStopped && !isAbandoned {
            Parking.wakeAll()
        } else if !isAbandoned {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Lets the thread return once it has run the jobs it holds.
    func stop() {
        state.withLock { $0.isStopped = true }
        Parking.wakeAll()
    }

    /// The thread is parked for good: no job is run any more.
    func abandon() {
        state.withLock { $0.isAbandoned = true }
    }

    private func runJobs() {
        while true {
            let ticket = Parking.ticket()
            let (next, isStopped): (UnownedJob?, Bool) = state.withLock { state in
                (state.jobs.isEmpty ? nil : state.jobs.removeFirst(), state.isStopped)
            }
            if let next {
                next.runSynchronously(on: asUnownedTaskExecutor())
            } else if isStopped {
                return
            } else {
                Parking.wait(ticket)
            }
        }
    }
}

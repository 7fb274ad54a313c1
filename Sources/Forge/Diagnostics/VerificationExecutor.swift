// Forge: the task executor an async verify { } runs on, with threads of its own that a problem may park.

/// Runs the jobs of an async ``SharedContainer/Diagnostics/verify(fileID:line:_:)-4il86`` body on threads of its
/// own, so that a problem met in a closure that cannot throw parks one of them (``Verification/abandon(with:)``),
/// never one of Swift's cooperative threads: the jobs of the tasks that prefer it, the body's task, its child tasks
/// and the creations ``Verification/startTask(_:)`` starts. An unstructured task that the body starts
/// (`Task { }`) does not prefer it (SE-0417): its jobs go to Swift's global executor.
///
/// It starts a thread when a job comes and none is idle: one thread runs the body, and another starts only while
/// every one of them is busy, such as when a factory's closure blocks until a task it started makes an async
/// factory's instance. Idle threads wait for the next job; once the verification ends, they return, and a job that
/// comes later goes to Swift's global executor. After a problem parked a thread, no job is run any more: the jobs of
/// the abandoned resolution stay where they are.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class VerificationExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        /// Threads waiting for a job.
        var idle = 0
        var isStopped = false
        var isAbandoned = false
    }
    private let state = Locked(State())
    /// The verification its threads run a part of, until it ends (the two would otherwise keep each other alive).
    private let owner = Locked<Verification?>(nil)

    /// Makes its threads run as a part of `verification`: a problem met there is recorded in it.
    func attach(_ verification: Verification) {
        owner.withLock { $0 = verification }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        enum Next { case queued, startAThread, forward, drop }
        let next: Next = state.withLock { state in
            if state.isAbandoned { return .drop }
            if state.isStopped { return .forward }
            state.jobs.append(job)
            return state.idle >= state.jobs.count ? .queued : .startAThread
        }
        switch next {
        case .queued: Parking.wakeAll()
        case .startAThread: startThread()
        case .forward: globalConcurrentExecutor.enqueue(ExecutorJob(job))
        case .drop: break
        }
    }

    /// Lets the threads return once they have run the jobs they hold.
    func stop() {
        state.withLock { $0.isStopped = true }
        owner.withLock { $0 = nil }
        Parking.wakeAll()
    }

    /// A thread is parked for good: no job is run any more.
    func abandon() {
        state.withLock { $0.isAbandoned = true }
        Parking.wakeAll()
    }

    private func startThread() {
        let verification = owner.withLock { $0 }
        NewThread.start(for: "Container.Diagnostics.verify") { [self] in
            ThreadResolutionState.current.verification = verification
            runJobs()
        }
    }

    private func runJobs() {
        while true {
            let ticket = Parking.ticket()
            enum Next {
                case run(UnownedJob)
                case wait, end
            }
            let next: Next = state.withLock { state in
                if state.isAbandoned { return .end }
                if !state.jobs.isEmpty { return .run(state.jobs.removeFirst()) }
                if state.isStopped { return .end }
                state.idle += 1
                return .wait
            }
            switch next {
            case .run(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .wait:
                Parking.wait(ticket)
                state.withLock { $0.idle -= 1 }
            case .end:
                return
            }
        }
    }
}

// A child forked while other threads resolve must be able to reset and resolve.
import Forge
import Foundation
import Testing

extension Container {
    fileprivate static let forked = Factory(scope: .cached) { Tracked(id: 1) }
}

/// Whether this process runs under the thread sanitizer, whose runtime does not support `fork()` in a process
/// with several threads: a child hung there inside the Swift runtime's `swift_once`, before reaching Forge.
private let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

@Suite struct ForkTests {
    /// Two threads hit a cached factory while the main thread forks 100 times; each child resets the scope and
    /// resolves again. The child inherits the other threads' state but not the threads: any lock or marker they
    /// held at the fork would make it wait forever. The first child that has not finished after 20 seconds fails
    /// the test. In a child process of its own, so that only these threads run when it forks.
    @Test(
        "A forked child resets and resolves while other threads were hitting the cache",
        .enabled(if: !underThreadSanitizer, "the thread sanitizer does not support fork() with several threads")
    )
    func forkWhileHitting() async {
        await #expect(processExitsWith: .success) {
            let stop = Locked(false)
            let hitters = DispatchGroup()
            for _ in 0..<2 {
                DispatchQueue.global().async(group: hitters) {
                    while !stop.value {
                        for _ in 0..<1_000 { _ = Container.forked() }
                    }
                }
            }
            Container.Scope.cached.reset()  // the child's path, taken once in the parent first
            _ = Container.forked()
            var hung = false
            for _ in 0..<100 {
                var pipeEnds: [Int32] = [0, 0]
                precondition(pipe(&pipeEnds) == 0)
                let child = fork()
                if child == 0 {
                    Container.Scope.cached.reset()
                    _ = Container.forked()
                    Container.Scope.cached.reset()
                    var byte: UInt8 = 1
                    _ = write(pipeEnds[1], &byte, 1)
                    _exit(0)
                }
                precondition(child > 0)
                close(pipeEnds[1])
                var reader = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
                let answered = poll(&reader, 1, 20_000) == 1
                if !answered { kill(child, SIGKILL) }
                close(pipeEnds[0])
                var status: Int32 = 0
                waitpid(child, &status, 0)
                if !answered {
                    hung = true
                    break
                }
            }
            stop.value = true
            hitters.wait()
            if hung {
                print("a forked child hung")
                exit(1)
            }
        }
    }
}

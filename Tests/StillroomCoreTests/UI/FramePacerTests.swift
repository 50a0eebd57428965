import Testing
import StillroomCore

@Suite struct FramePacerTests {
    let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    @Test func firstFrameIsDueAtOnceThenNothingUntilAChange() {
        var pacer = FramePacer()
        #expect(pacer.nextFrame(after: t0) == t0)
        pacer.frameDrawn(at: t0, animating: false)
        #expect(pacer.nextFrame(after: t0 + .seconds(5)) == nil)
        pacer.invalidate()
        #expect(pacer.nextFrame(after: t0 + .seconds(5)) == t0 + .seconds(5))
    }

    @Test func framesAreNeverCloserThanTheCap() {
        var pacer = FramePacer(maximumFramesPerSecond: 30, maximumAnimationFramesPerSecond: 30)
        #expect(pacer.minimumInterval == .nanoseconds(33_333_334))
        pacer.frameDrawn(at: t0, animating: false)
        pacer.invalidate()
        #expect(pacer.nextFrame(after: t0 + .milliseconds(1)) == t0 + .nanoseconds(33_333_334))
        // Animating: one frame per interval, or at once when late.
        pacer.frameDrawn(at: t0, animating: true)
        #expect(pacer.nextFrame(after: t0) == t0 + .nanoseconds(33_333_334))
        #expect(pacer.nextFrame(after: t0 + .milliseconds(50)) == t0 + .milliseconds(50))
        // Over a second of animation, at most 30 frames.
        var now = t0, frames = 0
        var moving = FramePacer(maximumFramesPerSecond: 30, maximumAnimationFramesPerSecond: 30)
        while let next = moving.nextFrame(after: now), next < t0 + .seconds(1) {
            now = next
            moving.frameDrawn(at: now, animating: true)
            frames += 1
        }
        #expect(frames == 30)
    }

    @Test func noFramesWhileDarkWhateverHappens() {
        var pacer = FramePacer()
        pacer.frameDrawn(at: t0, animating: true)
        pacer.setScreenOn(false)
        pacer.invalidate()
        #expect(pacer.nextFrame(after: t0 + .seconds(1)) == nil)
        pacer.frameDrawn(at: t0 + .seconds(1), animating: true)
        #expect(pacer.nextFrame(after: t0 + .seconds(2)) == nil)
        // Lit again: a frame at once (what it shows may be stale), even with nothing invalidated.
        pacer.frameDrawn(at: t0 + .seconds(1), animating: false)
        pacer.setScreenOn(true)
        #expect(pacer.nextFrame(after: t0 + .seconds(3)) == t0 + .seconds(3))
    }

    @Test func aBusyDisplayHoldsTheNextFrame() {
        var pacer = FramePacer()
        pacer.frameDrawn(at: t0, animating: true)
        pacer.setDisplayBusy(true)
        #expect(pacer.nextFrame(after: t0 + .milliseconds(80)) == nil)
        pacer.setDisplayBusy(false)
        #expect(pacer.nextFrame(after: t0 + .milliseconds(80)) == t0 + .milliseconds(80))
    }

    /// An animation that says when it next changes is not woken before then, unless something else changed.
    @Test func anAnimationsNextChangeDefersTheFrame() {
        var pacer = FramePacer()
        pacer.frameDrawn(at: t0, animating: true, nextChange: t0 + .milliseconds(400))
        #expect(pacer.nextFrame(after: t0 + .milliseconds(1)) == t0 + .milliseconds(400))
        pacer.invalidate()
        #expect(pacer.nextFrame(after: t0 + .milliseconds(1)) == t0 + .nanoseconds(33_333_334))
        // A next change sooner than the animation's pace waits for it; a still scene ignores the hint.
        pacer.frameDrawn(at: t0, animating: true, nextChange: t0 + .milliseconds(5))
        #expect(pacer.nextFrame(after: t0) == t0 + .nanoseconds(66_666_667))
        pacer.frameDrawn(at: t0, animating: false, nextChange: t0 + .milliseconds(400))
        #expect(pacer.nextFrame(after: t0) == nil)
    }

    /// Animation alone runs at 15 frames a second; a change (a touch, a seek preview) is answered at 30.
    @Test func animationAloneRunsAtItsOwnSlowerPace() {
        var pacer = FramePacer()
        #expect(pacer.animationInterval == .nanoseconds(66_666_667))
        var now = t0, frames = 0
        pacer.frameDrawn(at: now, animating: true)
        while let next = pacer.nextFrame(after: now), next < t0 + .seconds(1) {
            now = next
            pacer.frameDrawn(at: now, animating: true)
            frames += 1
        }
        #expect(frames == 14) // 15 in the second, counting the one at t0
        pacer.frameDrawn(at: t0, animating: true)
        pacer.invalidate()
        #expect(pacer.nextFrame(after: t0) == t0 + .nanoseconds(33_333_334))
    }
}

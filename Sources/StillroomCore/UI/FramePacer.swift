/// Decides when the next frame is drawn: only when something changed or moves, never faster than
/// the frame cap, never while the screen is dark, never while the display is still busy with the
/// previous frame (a page flip in flight).
///
/// Pure: the caller passes `now` and arms one loop timer for `nextFrame`. Time-based content (the
/// breathing circle) is computed from the clock at the moment a frame is built, so a late or skipped
/// frame never shifts its timing.
public struct FramePacer: Sendable {
    /// The shortest time between two frames (1/30 s for the 30 fps cap).
    public let minimumInterval: Duration
    /// The shortest time between two frames that only animation asked for (1/15 s by default): the
    /// breathing circle moves a few pixels a second, so 15 steps look as calm as 30 and cost half,
    /// while a touch (an invalidation) is still answered at the full rate.
    public let animationInterval: Duration
    /// Whether the screen is lit. No frames at all while dark.
    public private(set) var screenOn: Bool = true
    /// Whether the display is still showing the last frame (a flip in flight).
    public private(set) var displayBusy: Bool = false
    /// Whether the content changed since the last frame (or no frame was drawn yet).
    public private(set) var needsFrame: Bool = true
    /// Whether the last frame's scene was animating.
    public private(set) var animating: Bool = false
    /// When the last frame was drawn.
    public private(set) var lastFrame: MonotonicInstant?
    /// The last animating scene's `nextChange`: no frame is needed before it.
    public private(set) var notBefore: MonotonicInstant?

    public init(maximumFramesPerSecond: Int = 30, maximumAnimationFramesPerSecond: Int = 15) {
        precondition(maximumFramesPerSecond > 0 && maximumAnimationFramesPerSecond > 0, "a frame rate is positive")
        self.init(minimumInterval: Self.interval(maximumFramesPerSecond),
                  animationInterval: Self.interval(maximumAnimationFramesPerSecond))
    }

    /// Pacing by intervals (the screen driver scales them under a time warp).
    public init(minimumInterval: Duration, animationInterval: Duration) {
        precondition(minimumInterval > .zero, "frames take time")
        self.minimumInterval = minimumInterval
        self.animationInterval = max(minimumInterval, animationInterval)
    }

    /// One frame's share of a second, rounded up, so that no one-second window ever holds more than the cap.
    public static func interval(_ framesPerSecond: Int) -> Duration {
        let rate = Int64(framesPerSecond)
        return .nanoseconds((1_000_000_000 + rate - 1) / rate)
    }

    /// The content changed: a frame is wanted (whatever the animation's `nextChange` said).
    public mutating func invalidate() { needsFrame = true }

    /// The screen was lit or darkened. Lighting it wants a frame (what it shows may be stale).
    public mutating func setScreenOn(_ on: Bool) {
        if on && !screenOn { needsFrame = true }
        screenOn = on
    }

    /// The display can (false) or cannot yet (true) take a frame.
    public mutating func setDisplayBusy(_ busy: Bool) { displayBusy = busy }

    /// A frame was built at `now`; `animating` and `nextChange` are that scene's.
    public mutating func frameDrawn(at now: MonotonicInstant, animating: Bool, nextChange: MonotonicInstant? = nil) {
        lastFrame = now
        needsFrame = false
        self.animating = animating
        notBefore = animating ? nextChange : nil
    }

    /// When to build the next frame (now or later), or nil when none is wanted: screen dark, display
    /// busy, or nothing changed and nothing moves.
    public func nextFrame(after now: MonotonicInstant) -> MonotonicInstant? {
        guard screenOn, !displayBusy, needsFrame || animating else { return nil }
        guard let lastFrame else { return now }
        if needsFrame { return max(now, lastFrame + minimumInterval) }
        // Only the animation wants a frame: at its own pace, and not before its next change.
        let paced = max(now, lastFrame + animationInterval)
        if let notBefore { return max(paced, notBefore) }
        return paced
    }
}

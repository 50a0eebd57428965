import CairoPainter
import Devices
import EventLoop
import StillroomCore

/// Runs the screen: builds a scene when a frame is due, paints what changed, presents it, and paces
/// the next frame with one loop timer.
///
/// Frames are built only when `invalidate()` was called or the last scene was animating, at most
/// `maximumFramesPerSecond` a (real) second, never while the screen is dark, and never while the display is
/// busy with the previous frame (the next is built when it reports ready). The scene is built from
/// the loop's `now` at the moment of drawing, so time-based content (the breathing circle) is always
/// where it should be, however late or seldom frames come. All on the loop's thread.
public final class ScreenDriver: DisplayDelegate {
    public let display: Display
    public let painter: ScenePainter
    /// Called when the display fails (it is then left alone) or a present is refused; log it.
    public var onError: ((DisplayError) -> Void)?
    /// Called once, when the first frame has been given to the display: the box's ready cue is on screen.
    public var onFirstFrame: (() -> Void)?
    /// Scenes built, and frames given to the display (a scene that changed nothing is not presented).
    public private(set) var framesBuilt = 0
    public private(set) var framesPresented = 0
    /// Whether the display failed; nothing more is drawn.
    public private(set) var failed = false

    private let loop: EventLoop
    private let makeScene: (MonotonicInstant) -> Scene
    private var pacer: FramePacer
    private var timer: LoopTimer?

    /// `makeScene(now)` builds the scene for a moment; it must be a scene of the display's size.
    public init(loop: EventLoop, display: Display, painter: ScenePainter, maximumFramesPerSecond: Int = 30,
                maximumAnimationFramesPerSecond: Int = 15, makeScene: @escaping (MonotonicInstant) -> Scene) {
        precondition(painter.size == display.size, "painter \(painter.size) for display \(display.size)")
        self.loop = loop
        self.display = display
        self.painter = painter
        self.makeScene = makeScene
        // The caps spare a real CPU, so they count real seconds: under a time warp (a soak on simulated
        // devices) one real second is `factor` seconds of the loop's clock.
        let warp = Int(loop.timeWarp.factor)
        pacer = FramePacer(minimumInterval: FramePacer.interval(maximumFramesPerSecond) * warp,
                           animationInterval: FramePacer.interval(maximumAnimationFramesPerSecond) * warp)
        pacer.setScreenOn(display.isPowered)
        display.delegate = self
        timer = loop.makeTimer { [unowned self] in drawFrame() }
        reschedule()
    }

    /// Something on screen changed: a frame will be drawn (on the next loop iteration at the soonest,
    /// so several changes in one iteration make one frame).
    public func invalidate() {
        pacer.invalidate()
        reschedule()
    }

    /// Whether the screen is lit.
    public var isScreenOn: Bool { pacer.screenOn }

    /// Lights or blanks the screen (DPMS). While dark nothing is drawn and no timer runs.
    public func setScreenOn(_ on: Bool) {
        guard on != pacer.screenOn, !failed else { return }
        do {
            try display.setPowered(on)
        } catch {
            onError?(error)
        }
        pacer.setScreenOn(on)
        reschedule()
    }

    /// When the next frame will be built, or nil when none is wanted (for status and tests).
    public var nextFrameDeadline: MonotonicInstant? { timer?.deadline }

    /// Stops drawing and closes the display.
    public func close() {
        timer?.cancel()
        timer = nil
        display.close()
    }

    // MARK: DisplayDelegate

    public func displayReady(_ display: Display) {
        pacer.setDisplayBusy(false)
        reschedule()
    }

    public func display(_ display: Display, failed error: DisplayError) {
        failed = true
        timer?.cancel()
        onError?(error)
    }

    // MARK: Frames

    private func drawFrame() {
        guard !failed else { return }
        let now = loop.now
        let scene = makeScene(now)
        framesBuilt += 1
        let damage = painter.render(scene)
        if !damage.isEmpty {
            do {
                try display.present(painter.frame, damage: damage)
                framesPresented += 1
                if framesPresented == 1 { onFirstFrame?() }
            } catch {
                onError?(error)
            }
        }
        pacer.frameDrawn(at: now, animating: scene.isAnimating, nextChange: scene.nextChange)
        pacer.setDisplayBusy(display.isBusy)
        reschedule()
    }

    private func reschedule() {
        guard let timer else { return }
        guard !failed else {
            timer.cancel()
            return
        }
        if let next = pacer.nextFrame(after: loop.now) {
            if timer.deadline != next { timer.schedule(at: next) }
        } else {
            timer.cancel()
        }
    }
}

import SimulatorDevices
import CairoPainter
import DeviceFakes
import Devices
import DisplayPipeline
import EventLoop
import StillroomCore
import Testing

/// A display that holds each frame "on screen" until the test completes its flip, like DRM does.
final class FlippingDisplay: Display {
    weak var delegate: DisplayDelegate?
    let size: PixelSize
    let name = "flipping"
    private(set) var isBusy = false
    private(set) var isPowered = true
    private(set) var presents = 0
    private(set) var presentsWhileBusy = 0

    init(size: PixelSize) { self.size = size }

    func present(_ frame: Frame, damage: [PixelRect]) throws(DisplayError) {
        if isBusy { presentsWhileBusy += 1 }
        presents += 1
        isBusy = true
    }

    func completeFlip() {
        isBusy = false
        delegate?.displayReady(self)
    }

    func setPowered(_ on: Bool) throws(DisplayError) { isPowered = on }
    func close() {}
}

/// The screen driver on a real loop: frames only when due, none while dark, one flip at a time.
/// Deadlines are checked as values; no test waits for a timer.
@Suite(.serialized) struct ScreenDriverTests {
    let size = PixelSize(width: 160, height: 100)

    func scene(moving: Bool, label: String = "A") -> Scene {
        Scene(size: size, background: Palette.night.background, nodes: [
            SceneNode("t", .text(TextRun(text: label, frame: Rect(x: 10, y: 10, width: 100, height: 30), size: 20, color: Palette.night.textPrimary))),
        ], isAnimating: moving)
    }

    /// Runs loop iterations that do not block, as a busy loop would around other events.
    func spin(_ loop: EventLoop, _ times: Int = 5) throws { for _ in 0..<times { try loop.runOnce(timeout: .zero) } }

    /// Runs the loop until `done()` holds (a frame timer fires within one frame interval). No time
    /// limit: a hang is a failure the test runner reports.
    func run(_ loop: EventLoop, until done: () -> Bool) throws { while !done() { try loop.runOnce() } }

    @Test func aStillSceneIsDrawnOnceAndThenNoTimerRuns() throws {
        let loop = try EventLoop()
        let display = OffscreenDisplay(size: size)
        var builds = 0
        let driver = ScreenDriver(loop: loop, display: display, painter: try ScenePainter(size: size)) { _ in
            builds += 1
            return self.scene(moving: false)
        }
        try spin(loop)
        #expect(builds == 1 && display.presentCount == 1)
        #expect(driver.nextFrameDeadline == nil)
        // Several changes in one iteration make one frame.
        driver.invalidate()
        driver.invalidate()
        #expect(driver.nextFrameDeadline != nil)
        try run(loop) { builds == 2 }
        try spin(loop)
        #expect(builds == 2)
        #expect(driver.nextFrameDeadline == nil)
        #expect(display.presentCount == 1) // the scene came out the same: nothing presented
    }

    @Test func anAnimatingSceneAsksForTheNextFrameOneAnimationIntervalLater() throws {
        let loop = try EventLoop()
        let display = OffscreenDisplay(size: size)
        var builtAt: [MonotonicInstant] = []
        let driver = ScreenDriver(loop: loop, display: display, painter: try ScenePainter(size: size)) { now in
            builtAt.append(now)
            return self.scene(moving: true, label: "\(builtAt.count)")
        }
        try loop.runOnce(timeout: .zero)
        #expect(builtAt.count == 1)
        #expect(driver.nextFrameDeadline == builtAt[0] + FramePacer().animationInterval)
        // More iterations build frames only at their deadlines: however slow the first paint was (it may
        // take longer than an interval on a busy machine, so a count in a window would be a guess), no frame
        // comes earlier than one animation interval after the one before.
        for _ in 0..<5 { try loop.runOnce(timeout: .zero) }
        for (earlier, later) in zip(builtAt, builtAt.dropFirst()) {
            #expect(later >= earlier + FramePacer().animationInterval, "a frame came \(later - earlier) after the one before")
        }
    }

    @Test func underATimeWarpTheCapCountsRealSeconds() throws {
        let loop = try EventLoop(timeWarpFactor: 600)
        let display = OffscreenDisplay(size: size)
        var builtAt: [MonotonicInstant] = []
        let driver = ScreenDriver(loop: loop, display: display, painter: try ScenePainter(size: size)) { now in
            builtAt.append(now)
            return self.scene(moving: true, label: "\(builtAt.count)")
        }
        try loop.runOnce(timeout: .zero)
        #expect(builtAt.count == 1)
        // An animating scene's next frame: 1/15 of a real second is 40 warped seconds.
        #expect(driver.nextFrameDeadline == builtAt[0] + FramePacer.interval(15) * 600)
    }

    @Test func noFramesAndNoTimersWhileDark() throws {
        let loop = try EventLoop()
        let display = OffscreenDisplay(size: size)
        var builds = 0
        let driver = ScreenDriver(loop: loop, display: display, painter: try ScenePainter(size: size)) { _ in
            builds += 1
            return self.scene(moving: true, label: "\(builds)")
        }
        try spin(loop, 1)
        #expect(builds == 1)
        driver.setScreenOn(false)
        #expect(!display.isPowered)
        #expect(driver.nextFrameDeadline == nil)
        for _ in 0..<5 {
            driver.invalidate()
            try spin(loop, 2)
        }
        #expect(builds == 1 && display.presentCount == 1)
        #expect(driver.nextFrameDeadline == nil)
        driver.setScreenOn(true)
        #expect(display.isPowered)
        #expect(driver.nextFrameDeadline != nil)
        try run(loop) { builds == 2 }
        #expect(display.presentCount == 2)
    }

    @Test func neverASecondFrameWhileTheFirstIsOnItsWay() throws {
        let loop = try EventLoop()
        let display = FlippingDisplay(size: size)
        var builds = 0
        let driver = ScreenDriver(loop: loop, display: display, painter: try ScenePainter(size: size)) { _ in
            builds += 1
            return self.scene(moving: true, label: "\(builds)")
        }
        try spin(loop)
        #expect(builds == 1 && display.presents == 1 && display.isBusy)
        driver.invalidate()
        try spin(loop)
        #expect(builds == 1)
        #expect(driver.nextFrameDeadline == nil)
        display.completeFlip()
        #expect(driver.nextFrameDeadline != nil)
        #expect(display.presentsWhileBusy == 0)
    }

    @Test func aFailedDisplayIsLeftAlone() throws {
        let loop = try EventLoop()
        let display = FlippingDisplay(size: size)
        var errors: [DisplayError] = []
        let driver = ScreenDriver(loop: loop, display: display, painter: try ScenePainter(size: size)) { _ in self.scene(moving: true) }
        driver.onError = { errors.append($0) }
        try spin(loop)
        driver.display(display, failed: DisplayError(.failed, "gone"))
        display.completeFlip()
        driver.invalidate()
        try spin(loop)
        #expect(errors == [DisplayError(.failed, "gone")])
        #expect(display.presents == 1 && driver.failed)
    }
}

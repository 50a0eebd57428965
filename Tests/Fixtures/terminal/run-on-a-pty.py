"""Runs a program on a new pseudo-terminal (its controlling terminal, as a terminal window gives it),
waits until it has said `ready-word`, then closes the terminal as a window being shut does, and says how
the program ended: "exit N" or "still running" (then it is killed), followed by what it wrote.

usage: run-on-a-pty.py READY-WORD PROGRAM [ARGUMENT...]
"""
import os
import pty
import select
import sys
import time

ready, program = sys.argv[1].encode(), sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(program[0], program)
out = b""
deadline = time.time() + 60  # a guard against a program that never gets ready, not a timing
while ready not in out and time.time() < deadline:
    if select.select([fd], [], [], 0.5)[0]:
        try:
            out += os.read(fd, 65536)
        except OSError:
            break
os.close(fd)  # the terminal goes away: the kernel hangs up its session
ended = None
deadline = time.time() + 60
while ended is None and time.time() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        ended = "exit %d" % os.waitstatus_to_exitcode(status)
    else:
        time.sleep(0.05)
if ended is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    ended = "still running"
print(ended)
sys.stdout.write(out.decode("utf-8", "replace"))

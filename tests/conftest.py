"""Present so pytest puts the project root on sys.path: test files import `tests.helpers`.

A shell that starts a job in the background (`cmd &`) starts it with Ctrl-C ignored, and a
child inherits that: Python then never raises KeyboardInterrupt, so the tests that press Ctrl-C
in a game, a simulation or a sweep would wait for runs that never stop. The suite puts Ctrl-C
back to its default, in this process and so in every child it starts."""

import signal

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

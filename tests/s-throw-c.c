/*
** s-throw-c.c -- the C frames of s-throw.cc, compiled without -fexceptions:
** an exception unwinds through them (x86-64 and aarch64 have unwind tables
** by default) but runs no cleanup, so their exit hooks never run.
**   mid: m3 (C++) -> c4 -> c5 -> c6 -> c7 -> m8 (C++)
**   top: main (C++) -> t1 -> t2 -> t3 -> t4 -> t5 (C++)
*/
extern volatile int sink;

void c4(int n), c5(int n), c6(int n), c7(int n), m8(int n);
void t1(int n), t2(int n), t3(int n), t4(int n), t5(int n);

#define FRAME(name, next) void name(int n) { sink += __LINE__; next(n + 1); }

FRAME(c4, c5) FRAME(c5, c6) FRAME(c6, c7) FRAME(c7, m8)
FRAME(t1, t2) FRAME(t2, t3) FRAME(t3, t4) FRAME(t4, t5)

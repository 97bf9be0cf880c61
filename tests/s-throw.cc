/*
** s-throw.cc -- a C++ exception thrown through 10 instrumented frames and
** caught by a try in main, ROUNDS times; after each catch main calls after(),
** whose context must be main > after, not under a frame the throw left.
**
**   s-throw cxx   x1 .. x10, all C++: GCC runs each exit hook in an unwind
**                 cleanup, so the shadow stack follows the throw exactly.
**   s-throw mid   m1 .. m3 C++, c4 .. c7 C without -fexceptions (s-throw-c.c:
**                 no cleanups, their exit hooks never run), m8 .. m10 C++:
**                 m3's exit hook finds c7 .. c4 still pushed and pops them,
**                 4 resyncs per throw.
**   s-throw top   t1 .. t4 C (no cleanups), t5 .. t10 C++: the entries of
**                 t4 .. t1 are left when the catch begins (__cxa_begin_catch);
**                 the runtime pops them there, 4 resyncs per throw.
**   s-throw dtor  d1 .. d3, C++, each with a Guard whose destructor the
**                 throw's cleanup of that frame calls, d3 throwing an Oops,
**                 whose destructor the C++ library calls when main's catch
**                 clause ends (__cxa_end_catch): each ~Guard must be its own
**                 frame's callee, ~Oops main's.
**
** Each frame function is called ROUNDS times, from the one before it (the
** first from main); after ROUNDS times, from main.
*/
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define ROUNDS 1000

extern "C" volatile int sink;

/* A local that a throw destroys in its frame's cleanup. */
struct Guard {
	explicit Guard(int k);
	~Guard();
	int n;
};

/* What d3 throws. */
struct Oops {
	explicit Oops(int k);
	~Oops();
	int n;
};

Guard::Guard(int k) : n(k) { sink += n; }
Guard::~Guard() { sink -= n; }
Oops::Oops(int k) : n(k) { sink += n; }
Oops::~Oops() { sink -= n; }

extern "C" {
volatile int sink;

void after(void);
void x1(int), x2(int), x3(int), x4(int), x5(int), x6(int), x7(int), x8(int), x9(int), x10(int);
void m1(int), m2(int), m3(int), c4(int), m8(int), m9(int), m10(int);
void t1(int), t5(int), t6(int), t7(int), t8(int), t9(int), t10(int);
void d1(int), d2(int), d3(int);

/* A frame: some work of its own (distinct, so that no two are folded), then the next. */
#define FRAME(name, next) void name(int n) { sink += __LINE__; next(n + 1); }
#define THROWER(name) void name(int n) { sink += __LINE__; throw n; }

FRAME(x1, x2) FRAME(x2, x3) FRAME(x3, x4) FRAME(x4, x5) FRAME(x5, x6)
FRAME(x6, x7) FRAME(x7, x8) FRAME(x8, x9) FRAME(x9, x10)
THROWER(x10)

FRAME(m1, m2) FRAME(m2, m3) FRAME(m3, c4)
FRAME(m8, m9) FRAME(m9, m10)
THROWER(m10)

FRAME(t5, t6) FRAME(t6, t7) FRAME(t7, t8) FRAME(t8, t9) FRAME(t9, t10)
THROWER(t10)

void d1(int n) { Guard g(n); d2(n + 1); }
void d2(int n) { Guard g(n); d3(n + 1); }
void d3(int n) { Guard g(n); throw Oops(n + 7); }

void after(void)
{
	sink++;
}
}


int main(int argc, char **argv)
{
	void (*first)(int);
	int round, caught = 0;

	if (argc != 2)
		return 2;
	if (std::strcmp(argv[1], "cxx") == 0)
		first = x1;
	else if (std::strcmp(argv[1], "mid") == 0)
		first = m1;
	else if (std::strcmp(argv[1], "top") == 0)
		first = t1;
	else if (std::strcmp(argv[1], "dtor") == 0)
		first = d1;
	else
		return 2;
	for (round = 0; round < ROUNDS; round++) {
		try {
			first(round);
		} catch (int n) {
			if (n == round + 9)
				caught++;
		} catch (const Oops &e) {
			if (e.n == round + 9)
				caught++;
		}
		after();
	}
	std::printf("caught %d\n", caught);
	return caught == ROUNDS ? 0 : 1;
}

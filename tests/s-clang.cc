/*
** s-clang.cc -- C++ built with clang at -O2, for tests/e2e-clang.sh: virtual
** calls, a template, and exceptions.  Known counts:
**
**   main calls total 4 times; total calls area on each of 3 Squares and 2
**   Rects: Square::area 12 times, Rect::area 8 times; each area calls
**   scaled<long>, a template always inlined (20 calls with
**   -finstrument-functions, none with -finstrument-functions-after-
**   inlining);
**   main calls descend(3) 5 times, which recurses to descend(0) and throws
**   from there: descend 5 calls + 15 recursive.  clang calls no exit hook
**   for a frame an exception leaves (GCC does), so libaprof resynchronises
**   its shadow stack at the next hook: after the catch main calls
**   after_catch, whose parent must be main, once.
*/
#include <stdexcept>
#include <vector>

#define NOINLINE __attribute__((noinline))

template <typename T> static inline __attribute__((always_inline)) T scaled(T x)
{
	return 3 * x;
}

struct Shape {
	virtual ~Shape() {}
	virtual long area() const = 0;
};

struct Square : Shape {
	long s;
	explicit Square(long side) : s(side) {}
	NOINLINE long area() const override { return scaled(s * s); }
};

struct Rect : Shape {
	long w, h;
	Rect(long width, long height) : w(width), h(height) {}
	NOINLINE long area() const override { return scaled(w * h); }
};

static volatile long sink;

NOINLINE long total(const std::vector<Shape *> &shapes);
NOINLINE void descend(int depth);
NOINLINE void after_catch(void);


NOINLINE long total(const std::vector<Shape *> &shapes)
{
	long sum = 0;

	for (const Shape *s : shapes)
		sum += s->area();
	return sum;
}


NOINLINE void descend(int depth)
{
	if (depth == 0)
		throw std::runtime_error("bottom");
	descend(depth - 1);
	sink = sink + depth; /* no tail call */
}


NOINLINE void after_catch(void)
{
	sink = sink + 1;
}


int main()
{
	Square a(1), b(2), c(3);
	Rect d(1, 2), e(3, 4);
	std::vector<Shape *> shapes{&a, &d, &b, &e, &c};
	int i;

	for (i = 0; i < 4; i++)
		sink = sink + total(shapes);
	for (i = 0; i < 5; i++) {
		try {
			descend(3);
		} catch (const std::runtime_error &) {
			sink = sink + 1;
		}
	}
	after_catch();
	return 0;
}

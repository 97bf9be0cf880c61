/*
** s-cxx.cc -- C++ allocation through every form of operator new and
** delete, which libstdc++ implements with the malloc family libaprof
** interposes.  Each routine's own allocations are exact (x86-64, Itanium
** C++ ABI: an array of a type with a destructor carries an 8-byte cookie):
**
**   scalar_new      10 x new Widget (40 bytes), sized delete: 400 bytes
**   array_new       new char[1000]; new Widget[5] (5 x 40 + 8 cookie):
**                   1208 bytes, 2 allocations
**   explicit_sized  operator new(123) + sized operator delete(p, 123);
**                   operator new(77) + unsized delete: 200 bytes, 2
**   aligned_new     new Line (alignas(64), 128 bytes); new Line[3] (384,
**                   trivial destructor: no cookie); operator new(256,
**                   align_val_t(64)) + sized aligned delete; operator
**                   new(384, align_val_t(128)) + aligned delete: 1152
**                   bytes, 4 allocations, each checked for its alignment
**   nothrow_new     new (nothrow) Widget, char[300], Line, and the
**                   aligned nothrow operator new(192, 64): 660 bytes, 4
**   leak_some       3 x new Widget and new char[50], never deleted: 170
**                   bytes kept, the only ones
**   grow_vector     push_back of 1000 longs; grow_string: appends 1000
**                   chars.  Their allocations are made in libstdc++'s
**                   templates below them; the program counts them itself
**                   from capacity() (a vector allocates capacity x 8, a
**                   string capacity + 1) and prints the counts.
**
** Built with -fsized-deallocation (C++14's default, made explicit) so a
** delete of a complete type calls the sized operator delete.  Every block
** but leak_some's is freed: each routine keeps 0 bytes, which holds only if
** every form of delete reaches libaprof's free.
*/
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

struct Widget {
	int a[10];
	Widget() { a[0] = 1; }
	~Widget() { a[0] = 0; } /* a destructor: arrays get a cookie */
};

struct alignas(64) Line {
	char b[128];
};

static_assert(sizeof(Widget) == 40, "Widget is 40 bytes");

/*
** Every block is stored here before its delete: a pointer that escapes keeps
** the compiler from eliding a new/delete pair (C++14 allows it, GCC does at -O2).
*/
void *volatile seen;
static_assert(sizeof(Line) == 128, "Line is 128 bytes");

void scalar_new();
void array_new();
void explicit_sized();
void aligned_new();
void nothrow_new();
void leak_some();
void grow_vector(unsigned long *bytes, unsigned long *allocs);
void grow_string(unsigned long *bytes, unsigned long *allocs);

static void check_aligned(const void *p, std::uintptr_t align)
{
	if (p == nullptr || (reinterpret_cast<std::uintptr_t>(p) & (align - 1)) != 0)
		std::abort();
}


void scalar_new()
{
	Widget *w[10];

	for (auto &x : w)
		seen = x = new Widget;
	for (auto &x : w)
		delete x;
}


void array_new()
{
	char *c = new char[1000];
	Widget *ws = new Widget[5];

	seen = c;
	seen = ws;
	delete[] c;
	delete[] ws;
}


void explicit_sized()
{
	void *p = ::operator new(123);
	void *q = ::operator new(77);

	seen = p;
	seen = q;
	::operator delete(p, 123);
	::operator delete(q);
}


void aligned_new()
{
	Line *l = new Line;
	Line *ls = new Line[3];
	void *p = ::operator new(256, std::align_val_t(64));
	void *q = ::operator new(384, std::align_val_t(128));

	check_aligned(l, 64);
	check_aligned(ls, 64);
	check_aligned(p, 64);
	check_aligned(q, 128);
	seen = l;
	seen = ls;
	delete l;
	delete[] ls;
	::operator delete(p, 256, std::align_val_t(64));
	::operator delete(q, std::align_val_t(128));
}


void nothrow_new()
{
	Widget *w = new (std::nothrow) Widget;
	char *c = new (std::nothrow) char[300];
	Line *l = new (std::nothrow) Line;
	void *p = ::operator new(192, std::align_val_t(64), std::nothrow);

	if (w == nullptr || c == nullptr)
		std::abort();
	seen = w;
	seen = c;
	check_aligned(l, 64);
	check_aligned(p, 64);
	delete w;
	delete[] c;
	delete l;
	::operator delete(p, std::align_val_t(64), std::nothrow);
}


Widget *volatile leaked_widget; /* globals, so the compiler keeps the leaks */
char *volatile leaked_chars;

void leak_some()
{
	for (int i = 0; i < 3; i++)
		leaked_widget = new Widget;
	leaked_chars = new char[50];
}


void grow_vector(unsigned long *bytes, unsigned long *allocs)
{
	std::vector<long> v;
	std::size_t cap = v.capacity();

	for (long i = 0; i < 1000; i++) {
		v.push_back(i);
		if (v.capacity() != cap) {
			cap = v.capacity();
			*bytes += cap * sizeof(long);
			++*allocs;
		}
	}
}


void grow_string(unsigned long *bytes, unsigned long *allocs)
{
	std::string s;
	std::size_t cap = s.capacity(); /* the short-string buffer: no allocation */

	for (int i = 0; i < 1000; i++) {
		s += static_cast<char>('a' + i % 26);
		if (s.capacity() != cap) {
			cap = s.capacity();
			*bytes += cap + 1;
			++*allocs;
		}
	}
}


int main()
{
	unsigned long vb = 0, va = 0, sb = 0, sa = 0;

	scalar_new();
	array_new();
	explicit_sized();
	aligned_new();
	nothrow_new();
	leak_some();
	grow_vector(&vb, &va);
	grow_string(&sb, &sa);
	std::printf("vector %lu %lu\nstring %lu %lu\n", vb, va, sb, sa);
	return 0;
}

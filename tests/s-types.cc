/*
** s-types.cc -- allocations of known C++ types, for aprof --types
** (tests/e2e-types.sh).  Each routine allocates and frees, so every count
** is exact (x86-64, Itanium C++ ABI, libstdc++):
**
**   t_new             3 x new geo::Point (24 bytes): 72 bytes
**   t_new_args        2 x new geo::Point(f(x), g(x)): the argument routines
**                     are entered before the constructor: 48 bytes
**   t_new_array       new Cell[4] (12 bytes, trivial destructor): 48 bytes;
**                     new Owned[3] (16 bytes, a destructor: 8-byte cookie):
**                     56 bytes
**   t_vector          std::vector<geo::Point> of 100 (reserve): 2400 bytes
**   t_map             std::map<int, geo::Point>, 5 nodes of 64 bytes: 320
**   t_string          std::string of 100 chars: one 101-byte buffer of char
**   t_shared          2 x std::make_shared<geo::Point>: the control block
**                     with the Point in it, 40 bytes each: 80
**   t_unique          std::unique_ptr<Owned>(new Owned) and
**                     std::make_unique<Owned>(): 2 x 16 bytes
**   t_malloc          malloc(100) and malloc(28), C style: the only bytes
**                     of unknown type (with stdout's buffer)
*/
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace geo {
struct Point {
	double x, y, z;
	Point() : x(0), y(0), z(0) {}
	Point(double a, double b) : x(a), y(b), z(a + b) {}
};
} // namespace geo

struct Cell {
	int a[3];
	Cell() { a[0] = 1; }
};

struct Owned {
	long v[2];
	Owned() { v[0] = 2; }
	~Owned() { v[0] = 0; }
};

static_assert(sizeof(geo::Point) == 24 && sizeof(Cell) == 12 && sizeof(Owned) == 16, "sizes");

double f(double x);
double g(double x);
double f(double x) { return x * 2; }
double g(double x) { return x + 1; }

static volatile long sink;

void t_new()
{
	for (int i = 0; i < 3; i++) {
		geo::Point *p = new geo::Point;
		sink += (long)p->x;
		delete p;
	}
}

void t_new_args(double x)
{
	for (int i = 0; i < 2; i++) {
		geo::Point *p = new geo::Point(f(x), g(x));
		sink += (long)p->z;
		delete p;
	}
}

void t_new_array(int n)
{
	Cell *c = new Cell[n];
	Owned *o = new Owned[n - 1];
	sink += c[0].a[0] + o[0].v[0];
	delete[] c;
	delete[] o;
}

void t_vector()
{
	std::vector<geo::Point> v;
	v.reserve(100);
	v.resize(100);
	sink += (long)v.size();
}

void t_map()
{
	std::map<int, geo::Point> m;
	for (int i = 0; i < 5; i++)
		m[i] = geo::Point(i, i);
	sink += (long)m.size();
}

void t_string()
{
	std::string s(100, 'x');
	sink += (long)s.size();
}

void t_shared()
{
	for (int i = 0; i < 2; i++) {
		std::shared_ptr<geo::Point> p = std::make_shared<geo::Point>();
		sink += (long)p->x;
	}
}

void t_unique()
{
	std::unique_ptr<Owned> a(new Owned);
	std::unique_ptr<Owned> b = std::make_unique<Owned>();
	sink += a->v[0] + b->v[0];
}

void t_malloc()
{
	char *a = (char *)malloc(100), *b = (char *)malloc(28);
	a[0] = b[0] = 1;
	sink += a[0] + b[0];
	free(a);
	free(b);
}

int main()
{
	t_new();
	t_new_args(1.5);
	t_new_array(4);
	t_vector();
	t_map();
	t_string();
	t_shared();
	t_unique();
	t_malloc();
	printf("%ld\n", (long)sink);
	return 0;
}

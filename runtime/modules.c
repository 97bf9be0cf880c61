/*
** modules.c -- objects holding instrumented code, found with dl_iterate_phdr.
*/
#include <config.h>

#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "modules.h"

static int lock;                       /* spin lock over the table */
static struct aprof_module *table;     /* mmap'd, doubled when full */
static size_t count, capacity;


APROF_NOINSTR static void read_build_id(const struct dl_phdr_info *info, const ElfW(Phdr) *ph,
					struct amon_module *m)
{
	const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
	const char *end = p + ph->p_memsz;

	while (p + sizeof(ElfW(Nhdr)) <= end) {
		const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
		const char *desc = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);

		p = desc + ((nh->n_descsz + 3) & ~3u);
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    memcmp((const char *)(nh + 1), "GNU", 4) == 0 && nh->n_descsz <= AMON_BUILD_ID_MAX &&
		    p <= end) {
			m->build_id_length = nh->n_descsz;
			memcpy(m->build_id, desc, nh->n_descsz);
			return;
		}
	}
}


/* Describes object INFO in *M: executable range, load bias, build-id, path. */
APROF_NOINSTR static void describe(const struct dl_phdr_info *info, struct aprof_module *m)
{
	int i;

	memset(&m->m, 0, sizeof m->m);
	m->m.load_bias = info->dlpi_addr;
	m->m.start = UINT64_MAX;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			if (a < m->m.start)
				m->m.start = a;
			if (a + ph->p_memsz > m->m.end)
				m->m.end = a + ph->p_memsz;
		} else if (ph->p_type == PT_NOTE && m->m.build_id_length == 0) {
			read_build_id(info, ph, &m->m);
		}
	}
	if (m->m.start > m->m.end)
		m->m.start = m->m.end = 0; /* no executable segment */
	strncpy(m->path, info->dlpi_name ? info->dlpi_name : "", sizeof m->path - 1);
	m->path[sizeof m->path - 1] = '\0';
}


/* dl_iterate_phdr's question: the object whose executable range holds an address. */
struct search {
	uintptr_t addr;
	struct aprof_module *found;
	int first;                  /* the next object visited is the first: the executable */
};


APROF_NOINSTR static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
	struct search *s = data;
	int first = s->first;

	(void)size;
	s->first = 0;
	describe(info, s->found);
	if (first && s->addr == 0)
		return 1;
	return s->addr >= s->found->m.start && s->addr < s->found->m.end;
}


/* The executable's path: dl_iterate_phdr names it "". */
APROF_NOINSTR static void exe_path(struct aprof_module *m)
{
	ssize_t n = readlink("/proc/self/exe", m->path, sizeof m->path - 1);

	m->path[n > 0 ? n : 0] = '\0';
}


APROF_NOINSTR void aprof_module_exe(struct aprof_module *m)
{
	struct search s = { 0, m, 1 };

	dl_iterate_phdr(visit, &s);
	exe_path(m);
}


APROF_NOINSTR void aprof_module_note(uintptr_t addr)
{
	struct aprof_module *m;
	struct search s;
	size_t i;

	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		APROF_CPU_RELAX();
	for (i = 0; i < count; i++)
		if (addr >= table[i].m.start && addr < table[i].m.end)
			goto out;
	if (count == capacity) {
		size_t n = capacity ? 2 * capacity : 16;
		struct aprof_module *t = aprof_map(n * sizeof t[0]);

		if (t == NULL)
			goto out; /* the analyser will print the address in no module */
		/* The old table stays mapped: a writer may be reading it. */
		if (table != NULL)
			memcpy(t, table, count * sizeof t[0]);
		__atomic_store_n(&table, t, __ATOMIC_RELEASE);
		capacity = n;
	}
	m = &table[count];
	s.addr = addr;
	s.found = m;
	s.first = 1;
	if (dl_iterate_phdr(visit, &s) == 0)
		goto out; /* in no loaded object (generated code?) */
	if (m->path[0] == '\0')
		exe_path(m);
	m->m.path_length = (uint32_t)strlen(m->path);
	__atomic_store_n(&count, count + 1, __ATOMIC_RELEASE);
out:
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}


APROF_NOINSTR const struct aprof_module *aprof_modules(size_t *n)
{
	struct aprof_module *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);

	*n = __atomic_load_n(&count, __ATOMIC_ACQUIRE);
	return t;
}

/*
 * memtrim.c: drop clean file mappings and free heap (see memtrim.h).
 */
#include <elf.h>
#include <link.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memtrim.h"

/* Whether an object's dynamic section asks for text relocations. */
static int
has_textrel(const struct dl_phdr_info *info)
{
	const ElfW(Dyn) *d;
	ElfW(Half) i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_DYNAMIC)
			continue;
		d = (const ElfW(Dyn) *)(info->dlpi_addr +
		    info->dlpi_phdr[i].p_vaddr);
		for (; d->d_tag != DT_NULL; d++) {
			if (d->d_tag == DT_TEXTREL)
				return 1;
			if (d->d_tag == DT_FLAGS &&
			    (d->d_un.d_val & DF_TEXTREL) != 0)
				return 1;
		}
	}
	return 0;
}

/* Whether addr lies in one of the object's loadable segments. */
static int
holds(const struct dl_phdr_info *info, uintptr_t addr)
{
	uintptr_t start;
	ElfW(Half) i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_LOAD)
			continue;
		start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
		if (addr >= start && addr - start < info->dlpi_phdr[i].p_memsz)
			return 1;
	}
	return 0;
}

static int
trim_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	size_t *total = arg;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	uintptr_t start, end;
	ElfW(Half) i;

	(void)size;
	/* The vDSO is the kernel's, not a file mapping: leave it. */
	if (info->dlpi_phnum == 0 || (vdso != 0 && holds(info, vdso)) ||
	    has_textrel(info))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) != 0)
			continue;
		start = info->dlpi_addr + ph->p_vaddr;
		end = start + ph->p_memsz;
		/* Whole pages inside the segment only. */
		start = (start + page - 1) & ~(page - 1);
		end &= ~(page - 1);
		if (end <= start)
			continue;
		if (madvise((void *)start, end - start, MADV_DONTNEED) == 0)
			*total += end - start;
	}
	return 0;
}

size_t
mem_trim_idle(void)
{
	size_t total = 0;

	(void)malloc_trim(0);
	(void)dl_iterate_phdr(trim_object, &total);
	return total;
}

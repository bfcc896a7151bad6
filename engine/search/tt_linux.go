package search

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back the table with transparent huge pages
// where the system allows it (its "madvise" setting, the common default).
// A probe lands on a random slot of tens of megabytes, and with 4 KB pages
// nearly every probe also misses the address-translation cache; 2 MB pages
// cut those misses. The advice is a hint: where it is refused, the table
// works as before.
func adviseHugePages(b []bucket) {
	if len(b) == 0 {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*int(unsafe.Sizeof(b[0])))
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
}

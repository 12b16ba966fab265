package seen

import (
	"unsafe"
)

// Batch answers go straight into the caller's []bool: libseen writes one byte per key, 0 or
// 1, and a Go bool is one byte holding 0 or 1, so no conversion pass is needed. The line
// below stops the build if a compiler ever gave bool another size.
var _ [1]struct{} = [unsafe.Sizeof(false)]struct{}{}

package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// bbolt maps the file into memory and trusts it: a file cut short (a full
// disk, a copy interrupted) makes the first read past its end a SIGBUS
// that kills the process with a stack dump. Open checks the file against
// its own header first, and turns a fault while opening into an error.

// Offsets in bbolt's file format (version 2): each of the first two pages
// holds a meta record after a 16-byte page header.
const (
	metaMagic       = 0xED0CDAED
	pageHeaderSize  = 16
	metaMagicAt     = pageHeaderSize + 0
	metaPageSizeAt  = pageHeaderSize + 8
	metaHighWaterAt = pageHeaderSize + 40 // pgid: pages in use
	metaTxIDAt      = pageHeaderSize + 48
	metaEnd         = pageHeaderSize + 64
)

// errDamaged marks a store file that cannot be what bbolt wrote.
var errDamaged = errors.New("the file is damaged or cut short; restore it from a backup or move it away to start afresh")

// checkFile reports a file shorter than the pages its newest meta record
// says are in use. A missing or empty file is fine (bbolt creates it), and
// anything else bbolt checks itself.
func checkFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	var best struct{ txid, pages, pageSize uint64 }
	found := false
	head := make([]byte, metaEnd)
	for _, at := range []int64{0, -1} {
		if at < 0 {
			if !found {
				return nil // no meta record to go by: bbolt says what is wrong
			}
			at = int64(best.pageSize) // the second meta page
		}
		if _, err := f.ReadAt(head, at); err != nil {
			if errors.Is(err, io.EOF) {
				continue
			}
			return err
		}
		if binary.LittleEndian.Uint32(head[metaMagicAt:]) != metaMagic {
			continue
		}
		txid := binary.LittleEndian.Uint64(head[metaTxIDAt:])
		if !found || txid > best.txid {
			best.txid = txid
			best.pages = binary.LittleEndian.Uint64(head[metaHighWaterAt:])
			best.pageSize = uint64(binary.LittleEndian.Uint32(head[metaPageSizeAt:]))
			found = true
		}
	}
	if !found || best.pageSize == 0 {
		return nil
	}
	if need := best.pages * best.pageSize; uint64(st.Size()) < need {
		return fmt.Errorf("%w (%d bytes, its header says %d)", errDamaged, st.Size(), need)
	}
	return nil
}

// guardFaults runs fn and turns a memory fault in it (a read of the mapped
// file past its end) into an error instead of a crash.
func guardFaults(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", errDamaged, p)
		}
	}()
	return fn()
}

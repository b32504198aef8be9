package main

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// lowerPriority sets the niceness of every thread of this process. On
// Linux a niceness belongs to a thread, not the process (setpriority(2),
// NOTES: PRIO_PROCESS with 0 changes only the calling thread), and the
// search runs on whichever thread the Go runtime picks; a thread made
// later inherits the niceness of the thread that makes it, so setting
// each thread now sets them all. Elsewhere the process's call is made.
func lowerPriority(nice int) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return syscall.Setpriority(syscall.PRIO_PROCESS, 0, nice)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
	}
	return nil
}

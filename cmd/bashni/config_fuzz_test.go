package main

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadConfig: any file either loads to a configuration that passes
// validation or fails with a usage error; nothing panics.
func FuzzLoadConfig(f *testing.F) {
	example, _ := os.ReadFile("../../config.example.yaml")
	f.Add(string(example))
	f.Add("telegram:\n  token: x\n  mode: webhook\n")
	f.Add("game: {remind_after: -5s}\n")
	f.Add("redis:\n  addrs: [a, b]\n  db: 99999999999999999999\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		path := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Skip()
		}
		c, err := loadConfig(path, func(string) string { return "" })
		if err != nil {
			return
		}
		if err := c.validate(); err != nil {
			t.Fatalf("loaded a configuration that does not validate: %v", err)
		}
	})
}

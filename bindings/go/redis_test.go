package seen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// respConn is a minimal RESP client, standing in for the user's driver: requests are
// arrays of bulk strings; replies are string, int64, error or []any.
type respConn struct {
	conn net.Conn
	r    *bufio.Reader
}

func (c *respConn) do(_ context.Context, args ...any) (any, error) {
	buf := []byte("*" + strconv.Itoa(len(args)) + "\r\n")
	for _, a := range args {
		var b []byte
		switch v := a.(type) {
		case string:
			b = []byte(v)
		case []byte:
			b = v
		default:
			b = []byte(fmt.Sprint(v))
		}
		buf = append(buf, "$"+strconv.Itoa(len(b))+"\r\n"...)
		buf = append(append(buf, b...), "\r\n"...)
	}
	if _, err := c.conn.Write(buf); err != nil {
		return nil, err
	}
	return c.read()
}

func (c *respConn) read() (any, error) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	body := line[1 : len(line)-2]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return nil, errors.New(body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, _ := strconv.Atoi(body)
		if n < 0 {
			return nil, nil
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, b); err != nil {
			return nil, err
		}
		return string(b[:n]), nil
	case '*':
		n, _ := strconv.Atoi(body)
		out := make([]any, n)
		for i := range out {
			if out[i], err = c.read(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("bad reply %q", line)
}

// startRedis runs Debian's redis-server with seen's module on a free 127.0.0.1 port.
func startRedis(t *testing.T) *respConn {
	module := os.Getenv("SEEN_REDIS_MODULE")
	if module == "" {
		t.Skip("SEEN_REDIS_MODULE is not set (configure with -Dredis=enabled)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--logfile", filepath.Join(dir, "log"), "--loadmodule", module)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			t.Cleanup(func() { conn.Close() })
			return &respConn{conn, bufio.NewReader(conn)}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("redis-server did not start")
	return nil
}

func TestRedisWindowsRoundTrip(t *testing.T) {
	c := startRedis(t)
	ctx := context.Background()
	w := RedisWindows{Do: c.do}
	if err := w.Mark(ctx, "exp:{1}", []uint64{1, 2, 1 << 63}, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	unseen, err := w.Filter(ctx, "exp:{1}", []uint64{1, 3, 1 << 63, 4, 5, 6, 7, 8, 9})
	if err != nil || !reflect.DeepEqual(unseen, []uint64{3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("Filter = %v, %v", unseen, err)
	}
	taken, err := w.Take(ctx, "exp:{1}", 2, []uint64{2, 3, 3, 4, 5})
	if err != nil || !reflect.DeepEqual(taken, []uint64{3, 4}) {
		t.Fatalf("Take = %v, %v", taken, err)
	}
	if unseen, _ = w.Filter(ctx, "exp:{1}", []uint64{3, 4, 5}); !reflect.DeepEqual(unseen, []uint64{5}) {
		t.Fatalf("after Take, Filter = %v", unseen)
	}
	ttl, err := c.do(ctx, "TTL", "exp:{1}")
	if err != nil || ttl.(int64) < 80 || ttl.(int64) > 90 {
		t.Fatalf("TTL = %v, %v", ttl, err)
	}
	// Integer ids hash as their 8 little-endian bytes, as in a local Window.
	local, err := NewCountWindow(500, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	if _, err := c.do(ctx, "SEEN.MARKB", "local", PackIDs([]uint64{11, 12})); err != nil {
		t.Fatal(err)
	}
	local.AddUint64s([]uint64{11, 12}, 0)
	blob, _ := local.MarshalBinary()
	if _, err := c.do(ctx, "SEEN.LOAD", "copy", blob); err != nil {
		t.Fatal(err)
	}
	a, _ := w.Filter(ctx, "local", []uint64{11, 12, 13})
	b, _ := w.Filter(ctx, "copy", []uint64{11, 12, 13})
	if !reflect.DeepEqual(a, []uint64{13}) || !reflect.DeepEqual(a, b) {
		t.Fatalf("module %v, local window %v", a, b)
	}
	if _, err := w.Take(ctx, "exp:{1}", -1, []uint64{1}); err == nil {
		t.Fatal("a negative want was accepted")
	}
}

func TestPackingIsLittleEndianAndLSBFirst(t *testing.T) {
	if got := PackIDs([]uint64{1, 0x0102}); !reflect.DeepEqual(got,
		[]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("PackIDs = %v", got)
	}
	unseen, err := UnseenFromBitmap([]uint64{10, 11, 12, 13, 14, 15, 16, 17, 18}, []byte{0x05, 0x01})
	if err != nil || !reflect.DeepEqual(unseen, []uint64{10, 12, 18}) {
		t.Fatalf("UnseenFromBitmap = %v, %v", unseen, err)
	}
	if _, err := UnseenFromBitmap([]uint64{1}, nil); err == nil {
		t.Fatal("a short bitmap was accepted")
	}
	if _, err := UnpackIDs([]byte{1, 2, 3}); err == nil {
		t.Fatal("7 bytes unpacked")
	}
}

//go:build !linux

package walk

// ScanOrdered walks like Scan and calls emit with every entry in Scan's
// order. Here (no listing of our own to stream from) it is Scan, then emit
// over the result; see the Linux version.
func ScanOrdered(o Options, emit func(e Entry) error) error {
	es, err := Scan(o)
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := emit(e); err != nil {
			return err
		}
	}
	return nil
}

package regex

// sizeLimitError is what the reference reports when the compiled program of
// a pattern would exceed its size budget.
type sizeLimitError struct{}

func (sizeLimitError) Error() string { return "compiled regex exceeds size limit of 104857600" }

// compiledSizeLimit bounds the compiled program (the NFA, nfaSize) in
// bytes: Rust's regex default size limit (regex 1.x, 10 MiB), applied to the
// program this package actually builds.
const compiledSizeLimit = 10 << 20

// compiledSizeError is the rejection of a pattern whose compiled program
// exceeds compiledSizeLimit, worded as Rust's regex words it.
type compiledSizeError struct{}

func (compiledSizeError) Error() string {
	return "compiled regex exceeds size limit of 10485760 bytes"
}

// Error is the error Compile returns for a pattern it rejects. Its message
// starts with "Regex error: " followed by the text the reference prints.
type Error struct {
	// Pattern is the pattern as given in Options.
	Pattern string
	// Msg is the detail after the "Regex error: " prefix.
	Msg string
}

// Error is the message the reference prints.
func (e *Error) Error() string { return "Regex error: " + e.Msg }

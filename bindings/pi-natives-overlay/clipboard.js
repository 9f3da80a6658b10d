// @oh-my-pi/pi-natives/clipboard: the real package's, unchanged.
export * from "@oh-my-pi/pi-natives-real/clipboard";

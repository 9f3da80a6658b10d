// @oh-my-pi/pi-natives/desktop: the real package's, unchanged.
export * from "@oh-my-pi/pi-natives-real/desktop";

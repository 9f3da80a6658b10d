export * from "@oh-my-pi/pi-natives-real/clipboard";

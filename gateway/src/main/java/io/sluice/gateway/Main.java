package io.sluice.gateway; public final class Main { public static void main(String[] a) {} }

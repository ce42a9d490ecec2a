Pod::Spec.new do |s|
  s.name = 'Payments'
  s.description = <<-DESC
    Payments depends on Core. Do not write
    s.dependency 'Fake', '~> 9.0' here; it's "just" text # really
  DESC
  s.dependency 'Core', '~> 1.0'
  s.dependency 'Net', <<~VERSION.strip
    ~> 2.0
  VERSION
end

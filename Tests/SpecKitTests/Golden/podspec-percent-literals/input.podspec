Pod::Spec.new do |s|
  s.name = %q{Payments}
  s.description = %Q(Uses {braces} and (parens) # inside)
  s.dependency 'Core', %q{~> 1.0}
  s.dependency 'Net', %Q(~> 2.0)
  s.dependency %q{Log}
end

Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', '1.0.1' # pinned by modkit, 'quotes' "too"
  s.dependency 'Net', '2.0.0'# no space
end
